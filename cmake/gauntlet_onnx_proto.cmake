# libprotobuf code generated from onnx.proto for the two parsers this project is compared with:
# the bench's peer (bench/) and fuzz_diff_protobuf's reference (harness/fuzz/). One schema for
# both: Debian's libonnx-dev onnx.proto where installed, else harness/fuzz/onnx_reference.proto,
# which has the same descriptors (ctest fuzz_reference_schema compares them).
if(EXISTS /usr/include/onnx/onnx.proto)
  set(gauntlet_default_onnx_proto /usr/include/onnx/onnx.proto)
else()
  set(gauntlet_default_onnx_proto ${CMAKE_SOURCE_DIR}/harness/fuzz/onnx_reference.proto)
endif()
set(GAUNTLET_ONNX_PROTO ${gauntlet_default_onnx_proto}
    CACHE FILEPATH "onnx.proto that libprotobuf's parsers are generated from")

# gauntlet_onnx_proto(TARGET NAME [FULL_RUNTIME]): the static library TARGET of NAME.pb.cc, generated
# from GAUNTLET_ONNX_PROTO copied as NAME.proto; FULL_RUNTIME drops the schema's LITE_RUNTIME option
# (an oracle that reads descriptors needs the full runtime). No TARGET where protoc or libprotobuf
# is missing: the caller says what is skipped.
function(gauntlet_onnx_proto target name)
  cmake_parse_arguments(arg "FULL_RUNTIME" "" "" ${ARGN})
  find_package(Protobuf QUIET)
  if(NOT Protobuf_FOUND OR NOT Protobuf_PROTOC_EXECUTABLE OR NOT EXISTS ${GAUNTLET_ONNX_PROTO})
    return()
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(copy cat ${GAUNTLET_ONNX_PROTO})
  if(arg_FULL_RUNTIME)
    set(copy sed -e "s/^option.optimize_for.*LITE_RUNTIME.*//" ${GAUNTLET_ONNX_PROTO})
  endif()
  add_custom_command(
    OUTPUT ${gen}/${name}.pb.cc ${gen}/${name}.pb.h
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gen}
    COMMAND ${copy} > ${gen}/${name}.proto
    COMMAND ${Protobuf_PROTOC_EXECUTABLE} --cpp_out=${gen} -I${gen} ${gen}/${name}.proto
    DEPENDS ${GAUNTLET_ONNX_PROTO}
    COMMENT "protoc: ${name}.proto for ${target}")
  add_library(${target} STATIC ${gen}/${name}.pb.cc)
  target_include_directories(${target} SYSTEM PUBLIC ${gen} ${Protobuf_INCLUDE_DIRS})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf)
  target_compile_options(${target} PRIVATE -w)  # generated code
endfunction()
