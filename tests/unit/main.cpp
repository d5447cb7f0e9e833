// The unit-test binary's entry point: Boost.Test, header-only; tests live in the other files here.
#define BOOST_TEST_MODULE unit
#include <boost/test/included/unit_test.hpp>
