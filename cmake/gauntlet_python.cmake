# The harness package (python/gauntlet/), run by Debian's interpreter: it has python3-onnx,
# the pyenv python3 first on PATH does not. Tests call `python3 -m gauntlet <command>`.
set(GAUNTLET_PYTHON /usr/bin/python3)
set(GAUNTLET_PYTHONPATH ${CMAKE_SOURCE_DIR}/python)

# gauntlet_add_test(NAME COMMAND ARGS...): a CTest entry that runs `python3 -m gauntlet
# COMMAND ARGS...` with the package on PYTHONPATH and BUILD naming this build folder.
function(gauntlet_add_test name)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${GAUNTLET_PYTHONPATH} BUILD=${CMAKE_BINARY_DIR}
                   ${GAUNTLET_PYTHON} -m gauntlet ${ARGN})
endfunction()
