// Texts that name where to connect or which trace to continue: Redis URLs (redis_url.cpp), FastCGI
// addresses (fastcgi_client.cpp) and W3C traceparent headers (trace.cpp).
#include "fuzz.hpp"
#include "icat/fastcgi_client.hpp"
#include "icat/redis.hpp"
#include "icat/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  if (std::optional<icat::RedisEndpoint> redis = icat::ParseRedisUrl(text)) {
    icat::fuzz::Expect(!redis->host.empty(), "a parsed Redis URL names a host or a socket");
    icat::fuzz::Expect(redis->host.find('@') == std::string::npos || redis->port == 0,
                       "credentials never end up in a TCP host");
    icat::fuzz::Expect(redis->port >= 0 && redis->port <= 65535, "a port is a port");
  }
  if (std::optional<icat::FastCgiEndpoint> fastcgi = icat::ParseFastCgiAddress(text)) {
    icat::fuzz::Expect(!fastcgi->path.empty() || (!fastcgi->host.empty() && !fastcgi->port.empty()),
                       "a FastCGI address is a socket path or a host and port");
  }
  icat::Trace trace = icat::ContinueTrace(text);
  icat::fuzz::Expect(icat::IsTraceparent(trace.Traceparent()), "a continued trace is a valid traceparent");
  if (icat::IsTraceparent(text)) {
    icat::fuzz::Expect(trace.trace_id == text.substr(3, 32), "a valid traceparent keeps its trace id");
  }
  return 0;
}
