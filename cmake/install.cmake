# What `cmake --install` puts in place: the public headers, the libraries, a CMake
# package (find_package(onnximport CONFIG) -> onnximport::onnximport, ...) and a pkg-config
# file. The CLI installs itself (tools/CMakeLists.txt).
include(CMakePackageConfigHelpers)

# The installed libraries, each exported as onnximport::NAME and linked by the pkg-config
# file; a library split off (such as the dump) is one more name here.
set(ONNXIMPORT_INSTALLED_LIBRARIES onnximport onnximport_dump)

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

# pkg-config: dependents before what they depend on; a static library's own dependencies
# go in the public fields so that a plain `pkg-config --libs` links.
set(onnximport_pc_libs ${ONNXIMPORT_INSTALLED_LIBRARIES})
list(REVERSE onnximport_pc_libs)
list(TRANSFORM onnximport_pc_libs PREPEND "-l")
list(JOIN onnximport_pc_libs " " ONNXIMPORT_PC_LIBS)
if(BUILD_SHARED_LIBS)
  set(ONNXIMPORT_PC_REQUIRES "")
  set(ONNXIMPORT_PC_REQUIRES_PRIVATE "libcrypto")
  set(ONNXIMPORT_PC_LIBS_PRIVATE "")
else()
  set(ONNXIMPORT_PC_REQUIRES "libcrypto")
  set(ONNXIMPORT_PC_REQUIRES_PRIVATE "")
  string(APPEND ONNXIMPORT_PC_LIBS " -pthread")  # std::thread of ImportOptions::threads
endif()
# Relative to the file's own place, so that `cmake --install --prefix P` anywhere is right.
file(RELATIVE_PATH ONNXIMPORT_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" ONNXIMPORT_PC_TO_PREFIX "${ONNXIMPORT_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/onnximport.pc.in ${CMAKE_CURRENT_BINARY_DIR}/onnximport.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/onnximport.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
