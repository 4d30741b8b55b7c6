// The Boost.Test module of all unit suites.
#define BOOST_TEST_MODULE onnx_gauntlet
#include <boost/test/unit_test.hpp>
