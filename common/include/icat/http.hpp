// A request as nginx hands it over FastCGI, and the reply a handler builds.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icat {

// A query string's parameters, decoded, in order: (name, value) pairs.
using QueryPairs = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;
  std::string path;                            // path as sent, without the query string (the router decodes segments)
  std::string query;                           // raw query string
  std::string request_id;                      // nginx's $request_id
  std::string client_ip;                       // what nginx saw (REMOTE_ADDR), never a header the client chose
  std::string scheme = "http";                 // "https" when nginx received the request over TLS (its HTTPS parameter)
  std::map<std::string, std::string> headers;  // lower-case names
  std::map<std::string, std::string> path_params;  // filled by the router
  long content_length = 0;                         // as announced; a body over the limit is not read
  std::string body;

  std::string Header(std::string_view lower_case_name) const;
  // The decoded value of a query parameter (the first, if repeated).
  std::optional<std::string> Query(std::string_view name) const;
  // Every query parameter, decoded, in order.
  QueryPairs QueryParameters() const;
  std::string PathParam(std::string_view name) const;
  // The value of a cookie of the Cookie header (the first of that name); nullopt when absent.
  std::optional<std::string> Cookie(std::string_view name) const;
};

// A cookie's value in a Cookie header ("a=1; b=2", RFC 6265 5.4): the first pair of that exact
// name, its value without surrounding double quotes; nullopt when there is none.
std::optional<std::string> CookieValue(std::string_view cookie_header, std::string_view name);

using Header = std::pair<std::string, std::string>;

struct Reply {
  int status = 200;
  std::vector<Header> headers;
  std::string body;

  static Reply Json(int status, std::string body);
};

std::string UrlDecode(std::string_view text);

// Every byte but A-Z, a-z, 0-9 and "-._~" (RFC 3986 unreserved) as %XX, '/' and ':' too: a path
// segment, a query value, a purl's version or qualifier value.
std::string UrlEncode(std::string_view text);

}  // namespace icat
