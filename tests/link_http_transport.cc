// Links libfitrank_http.so into a test binary (the linker drops a library that nothing refers
// to), so that cli/http/load.cc finds the plugin already loaded wherever the binary lives.
#include "cli/http/transport.h"

extern const void* const fitrank_test_http_link;
const void* const fitrank_test_http_link = reinterpret_cast<const void*>(&fitrank_http_transport);
