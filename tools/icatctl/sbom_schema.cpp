// Validation against the official SPDX 2.3 and CycloneDX 1.5 schemas with valijson (docs/decisions.md
// says why valijson); each schema is parsed once per process from the embedded copy.
#include "sbom_schema.hpp"

#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <pthread.h>

#include <exception>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "session.hpp"

namespace icat::ctl {

namespace {

// How many violations a refusal names; the rest are counted.
constexpr size_t kNamedViolations = 5;

rapidjson::Document ParseEmbedded(std::string_view file_name) {
  std::string_view text = EmbeddedSchema(file_name);
  rapidjson::Document document;
  document.Parse(text.data(), text.size());
  if (document.HasParseError()) throw std::logic_error("embedded schema " + std::string(file_name) + " is not JSON");
  return document;
}

// bom-1.5 refers to spdx.schema.json and jsf-0.82.schema.json by relative $ref: valijson asks for
// them by name and gets the embedded copies, so no schema is ever fetched from the network.
const rapidjson::Document* FetchReferenced(const std::string& uri) {
  std::string name = uri.substr(uri.rfind('/') + 1);
  name = name.substr(0, name.find('#'));
  return new rapidjson::Document(ParseEmbedded(name));
}

void FreeReferenced(const rapidjson::Document* document) { delete document; }

std::unique_ptr<valijson::Schema> LoadSchema(std::string_view file_name) {
  rapidjson::Document document = ParseEmbedded(file_name);
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  parser.populateSchema(valijson::adapters::RapidJsonAdapter(document), *schema, FetchReferenced, FreeReferenced);
  return schema;
}

const valijson::Schema& LoadedSchema(SbomSchema which) {
  if (which == SbomSchema::kSpdx23) {
    static const std::unique_ptr<valijson::Schema> spdx = LoadSchema("spdx-schema.json");
    return *spdx;
  }
  static const std::unique_ptr<valijson::Schema> cyclonedx = LoadSchema("bom-1.5.schema.json");
  return *cyclonedx;
}

// valijson reports a failure again at each enclosing array item and object member ("Failed to
// validate item #3 in array."); only the innermost report says what is wrong.
bool RepeatsInnerFailure(const std::string& description) {
  return description.rfind("Failed to validate item #", 0) == 0 ||
         description.rfind("Failed to validate against schema associated with property name", 0) == 0;
}

// Appends "/token" to a JSON pointer, escaping '~' and '/' (RFC 6901).
void AppendToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) pointer += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
}

// valijson's context {"<root>", "[components]", "[3]"} as the JSON pointer "/components/3".
std::string Pointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (size_t i = 1; i < context.size(); ++i) AppendToken(pointer, std::string_view(context[i]).substr(1, context[i].size() - 2));
  return pointer.empty() ? "(root)" : pointer;
}

std::string Violation(const valijson::ValidationResults::Error& error) {
  std::string message = error.description;
  if (!message.empty() && message.back() == '.') message.pop_back();
  return Pointer(error.context) + ": " + message;
}

// valijson checks `pattern` and `format` with std::regex, whose matcher recurses once per character
// of the string (about 330 bytes of stack each, measured): a 30 KB string overflows the main
// thread's 8 MiB. So validation runs on a thread whose stack grows with the document's longest
// string, and strings beyond kLongestString are refused first; no SBOM field needs one.
constexpr size_t kLongestString = 1 << 20;
constexpr size_t kStackPerChar = 1024;
constexpr size_t kBaseStack = 8 << 20;

// The longest string (member names included) anywhere in the document, and its JSON pointer.
void Longest(const rapidjson::Value& value, const std::string& pointer, size_t& length, std::string& where) {
  if (value.IsString() && value.GetStringLength() > length) {
    length = value.GetStringLength();
    where = pointer.empty() ? "(root)" : pointer;
  } else if (value.IsArray()) {
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
      std::string item = pointer;
      AppendToken(item, std::to_string(i));
      Longest(value[i], item, length, where);
    }
  } else if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      std::string_view name(member.name.GetString(), member.name.GetStringLength());
      std::string inner = pointer;
      AppendToken(inner, name);
      if (name.size() > length) {
        length = name.size();
        where = inner + " (its name)";
      }
      Longest(member.value, inner, length, where);
    }
  }
}

struct Validation {
  const valijson::Schema* schema;
  const rapidjson::Value* document;
  valijson::ValidationResults results;
  bool valid = false;
  std::exception_ptr error;
};

void* Validate(void* argument) {
  auto* v = static_cast<Validation*>(argument);
  try {
    valijson::Validator validator;
    v->valid = validator.validate(*v->schema, valijson::adapters::RapidJsonAdapter(*v->document), &v->results);
  } catch (...) {
    v->error = std::current_exception();
  }
  return nullptr;
}

// Runs the validator on a thread with stack enough for `longest` characters in one regex match.
void RunOnLargeStack(Validation& v, size_t longest) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kBaseStack + kStackPerChar * longest);
  pthread_t thread;
  int failed = pthread_create(&thread, &attributes, Validate, &v);
  pthread_attr_destroy(&attributes);
  if (failed) throw std::runtime_error("cannot start the schema validation thread: " + std::string(strerror(failed)));
  pthread_join(thread, nullptr);
  if (v.error) std::rethrow_exception(v.error);
}

}  // namespace

void ValidateSbomSchema(SbomSchema which, std::string_view path, const rapidjson::Value& document) {
  size_t longest = 0;
  std::string where;
  Longest(document, "", longest, where);
  if (longest > kLongestString) {
    throw Failure(std::string(path) + ": " + where + ": a string of " + std::to_string(longest) +
                  " bytes, over the " + std::to_string(kLongestString >> 20) + " MiB an SBOM field may hold");
  }
  Validation v{&LoadedSchema(which), &document, {}, false, nullptr};
  RunOnLargeStack(v, longest);
  if (v.valid) return;
  const valijson::ValidationResults& results = v.results;

  std::vector<std::string> violations;
  for (const valijson::ValidationResults::Error& error : results) {
    if (!RepeatsInnerFailure(error.description)) violations.push_back(Violation(error));
  }
  if (violations.empty()) {  // never seen; the outermost report is better than none
    for (const valijson::ValidationResults::Error& error : results) violations.push_back(Violation(error));
  }
  std::string reason = which == SbomSchema::kSpdx23 ? "SPDX 2.3" : "CycloneDX 1.5";
  reason = std::string(path) + ": is not valid " + reason + " (official schema): ";
  for (size_t i = 0; i < violations.size() && i < kNamedViolations; ++i) reason += (i ? "; " : "") + violations[i];
  if (violations.size() > kNamedViolations) {
    reason += "; and " + std::to_string(violations.size() - kNamedViolations) + " more";
  }
  throw Failure(reason);
}

}  // namespace icat::ctl
