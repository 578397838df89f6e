# Installing fitrank like a real tool, and its Debian package.
#
# `cmake --install build` puts in place: bin/fitrank, the man page (generated at build time from
# the commands' own --help by packaging/make_man.sh with help2man), bash and zsh completions
# (packaging/fitrank.bash, packaging/_fitrank), and README, LICENSE and CHANGELOG under
# share/doc/fitrank. `cpack --config build/CPackConfig.cmake` builds
# fitrank_<version>_amd64.deb; its Depends line comes from dpkg-shlibdeps (the shared libraries
# the binary really links; Abseil is static when its archives exist, see FITRANK_STATIC_LIBS).
include(GNUInstallDirs)

find_program(FITRANK_HELP2MAN help2man)
if(FITRANK_HELP2MAN)
  set(_man ${CMAKE_BINARY_DIR}/fitrank.1.gz)
  add_custom_command(
    OUTPUT ${_man}
    COMMAND sh ${PROJECT_SOURCE_DIR}/packaging/make_man.sh $<TARGET_FILE:fitrank> ${_man}
    DEPENDS fitrank ${PROJECT_SOURCE_DIR}/packaging/make_man.sh
    COMMENT "Writing the man page from fitrank's own help (help2man)")
  add_custom_target(fitrank_man ALL DEPENDS ${_man})
  install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "help2man not found: no man page is built or installed (apt-get install help2man)")
endif()

install(FILES packaging/fitrank.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME fitrank)
install(FILES packaging/_fitrank DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(FITRANK_PACKAGE_MAINTAINER "fitrank developers" CACHE STRING
    "The Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fitrank)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "which AI models run on your GPUs, how fast, and what to buy next")
set(CPACK_PACKAGE_DESCRIPTION
    "fitrank estimates memory, fit, decode speed and time to first token of AI models on GPUs "
    "from the models' attention layout and the hardware's bandwidth and compute, ranks them with "
    "YAML rules per workload, and suggests upgrades. It includes an MCP server for agents.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${FITRANK_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What libcpp-httplib (the Ollama client) loads in turn; shlibdeps names only direct links.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libssl3, zlib1g, libbrotli1")
include(CPack)
