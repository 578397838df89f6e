// Stands in for a module with no sources yet.
