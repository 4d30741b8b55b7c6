# The fuzz targets, named once: every corpus/TARGET.options (the OSS-Fuzz convention; the
# replay tests, the valgrind replay, `python3 -m gauntlet fuzz` and ci/oss-fuzz/build.sh all
# read the same files). A target joins by adding its options file and harness/fuzz/TARGET.cpp.
function(gauntlet_fuzz_targets out)
  file(GLOB options CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/corpus/*.options)
  set(names)
  foreach(file IN LISTS options)
    get_filename_component(name ${file} NAME_WE)
    if(NOT EXISTS ${CMAKE_SOURCE_DIR}/harness/fuzz/${name}.cpp)
      message(FATAL_ERROR "corpus/${name}.options names a fuzz target without harness/fuzz/${name}.cpp")
    endif()
    list(APPEND names ${name})
  endforeach()
  list(SORT names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()
