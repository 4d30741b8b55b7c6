# What `cmake --install` puts in place: the public headers, the libraries, a CMake
# package (find_package(onnximport CONFIG) -> onnximport::onnximport, ...) and a pkg-config
# file. The CLI installs itself (tools/CMakeLists.txt).
include(CMakePackageConfigHelpers)

# The installed libraries, each exported as onnximport::NAME: the library, and the dump where
# OpenSSL was found (the package's component `dump`, pkg-config's onnximport-dump).
set(ONNXIMPORT_INSTALLED_LIBRARIES onnximport)
set(ONNXIMPORT_WITH_DUMP FALSE)
if(TARGET onnximport_dump)
  list(APPEND ONNXIMPORT_INSTALLED_LIBRARIES onnximport_dump)
  set(ONNXIMPORT_WITH_DUMP TRUE)
endif()

set(onnximport_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/onnximport)
install(TARGETS ${ONNXIMPORT_INSTALLED_LIBRARIES} EXPORT onnximportTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/importer/include/onnximport DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT onnximportTargets NAMESPACE onnximport:: DESTINATION ${onnximport_cmake_dir})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/onnximportConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/onnximportConfig.cmake INSTALL_DESTINATION ${onnximport_cmake_dir})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/onnximportConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/onnximportConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/onnximportConfigVersion.cmake
        DESTINATION ${onnximport_cmake_dir})

# pkg-config: onnximport for the library, onnximport-dump for the dump (libcrypto). A static
# library's own dependencies go in the public fields so that a plain `pkg-config --libs` links.
if(BUILD_SHARED_LIBS)
  set(ONNXIMPORT_PC_LIBS "")
  set(ONNXIMPORT_PC_DUMP_REQUIRES "onnximport")
  set(ONNXIMPORT_PC_DUMP_REQUIRES_PRIVATE "libcrypto")
else()
  set(ONNXIMPORT_PC_LIBS "-pthread")  # std::thread of ImportOptions::threads
  set(ONNXIMPORT_PC_DUMP_REQUIRES "onnximport libcrypto")
  set(ONNXIMPORT_PC_DUMP_REQUIRES_PRIVATE "")
endif()
# Relative to the file's own place, so that `cmake --install --prefix P` anywhere is right.
file(RELATIVE_PATH ONNXIMPORT_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" ONNXIMPORT_PC_TO_PREFIX "${ONNXIMPORT_PC_TO_PREFIX}")
set(onnximport_pc_files onnximport)
if(ONNXIMPORT_WITH_DUMP)
  list(APPEND onnximport_pc_files onnximport-dump)
endif()
foreach(pc ${onnximport_pc_files})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
