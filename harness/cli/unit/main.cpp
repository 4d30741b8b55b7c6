// The Boost.Test module of the CLI's parts (cli/): escaping, option parsing, the
// truncation guard. The CLI as a whole is tested through its binary (harness/cli/*.py).
#define BOOST_TEST_MODULE onnximport_cli
#include <boost/test/unit_test.hpp>
