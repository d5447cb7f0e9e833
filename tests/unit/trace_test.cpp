// W3C traceparent: what is a valid version-00 header, and what a request's trace is made of.
#include <boost/test/unit_test.hpp>
#include <regex>
#include <string>

#include "icat/trace.hpp"

BOOST_AUTO_TEST_SUITE(trace_context)

const std::string kTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string kParent = "00f067aa0ba902b7";

BOOST_AUTO_TEST_CASE(a_valid_traceparent_continues_its_trace_with_a_new_span) {
  icat::Trace t = icat::ContinueTrace("00-" + kTrace + "-" + kParent + "-01");
  BOOST_TEST(t.trace_id == kTrace);
  BOOST_TEST(t.flags == "01");
  BOOST_TEST(std::regex_match(t.span_id, std::regex("[0-9a-f]{16}")));
  BOOST_TEST(t.span_id != kParent);
  BOOST_TEST(t.Traceparent() == "00-" + kTrace + "-" + t.span_id + "-01");
  BOOST_TEST(icat::IsTraceparent(t.Traceparent()));
  BOOST_TEST(icat::ContinueTrace("00-" + kTrace + "-" + kParent + "-00").flags == "00");  // not sampled: kept
}

BOOST_AUTO_TEST_CASE(anything_else_begins_a_new_sampled_trace) {
  for (const std::string& bad : {
           std::string(), std::string("garbage"),
           "00-" + std::string(32, '0') + "-" + kParent + "-01",          // all-zero trace id
           "00-" + kTrace + "-" + std::string(16, '0') + "-01",           // all-zero parent id
           "01-" + kTrace + "-" + kParent + "-01",                        // another version
           "00-" + kTrace + "-" + kParent + "-01-extra",                  // version 00 has no more fields
           "00-4BF92F3577B34DA6A3CE929D0E0E4736-" + kParent + "-01",      // upper case
           "00-" + kTrace + "-" + kParent + "-0g",                        // not hex
           "00_" + kTrace + "-" + kParent + "-01",                        // wrong separator
       }) {
    BOOST_TEST_CONTEXT("\"" << bad << "\"") {
      BOOST_TEST(!icat::IsTraceparent(bad));
      icat::Trace t = icat::ContinueTrace(bad);
      BOOST_TEST(std::regex_match(t.trace_id, std::regex("[0-9a-f]{32}")));
      BOOST_TEST(t.trace_id != kTrace);
      BOOST_TEST(t.flags == "01");
      BOOST_TEST(icat::IsTraceparent(t.Traceparent()));
    }
  }
  BOOST_TEST(icat::ContinueTrace("").trace_id != icat::ContinueTrace("").trace_id);
}

BOOST_AUTO_TEST_SUITE_END()
