// Validation against the official SPDX 2.3, CycloneDX 1.5 and OpenVEX 0.2.0 schemas with valijson
// (docs/decisions.md says why valijson); each schema is parsed once per process from the embedded copy.
#include "ingest/sbom_schema.hpp"

// valijson's checks that meet a value of a type they cannot read (a "format" on an object: what
// `{"@id": {}}` is to OpenVEX's "iri") call throwRuntimeError, which without this prints and calls
// abort(): a crafted document would kill icatctl. With it they throw, and Validate reports it.
#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <pthread.h>

#include <exception>
#include <cstring>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <unordered_map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ingest/reports.hpp"
#include "ingest/session.hpp"

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

// Appends "/token" to a JSON pointer, escaping '~' and '/' (RFC 6901).
void AppendToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) pointer += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
}

// valijson checks uniqueItems by comparing every pair of items: a CycloneDX document of 4,000
// components took 0.9 s, one of 100,000 (24 MB) hours. So for the array properties whose every
// declaration in the schema says uniqueItems (components, dependencies, services, ...), the loaded
// copy drops the keyword and UniqueItemViolations checks it in linear time; a name the schema also
// declares without it (inputs, outputs, parameters: small formulation arrays) keeps valijson's check.
struct ParsedSchema {
  valijson::Schema schema;
  std::set<std::string> unique_arrays;  // property names whose arrays must hold distinct items
};

// Records, for every array property declared under "properties", whether it says uniqueItems.
void FindArrayProperties(const rapidjson::Value& node, std::set<std::string>& unique, std::set<std::string>& not_unique) {
  if (node.IsArray()) {
    for (const rapidjson::Value& item : node.GetArray()) FindArrayProperties(item, unique, not_unique);
  }
  if (!node.IsObject()) return;
  if (const rapidjson::Value* properties = Member(node, "properties"); properties && properties->IsObject()) {
    for (const auto& property : properties->GetObject()) {
      if (StringAt(property.value, "type").value_or("") != "array") continue;
      const rapidjson::Value* flag = Member(property.value, "uniqueItems");
      (flag && flag->IsTrue() ? unique : not_unique).insert(property.name.GetString());
    }
  }
  for (const auto& member : node.GetObject()) FindArrayProperties(member.value, unique, not_unique);
}

// Removes uniqueItems from the declarations of these array properties.
void DropUniqueItems(rapidjson::Value& node, const std::set<std::string>& names) {
  // Indexes, not range-for: clang in C++20 finds RapidJSON's non-const iterator comparison ambiguous.
  if (node.IsArray()) {
    for (rapidjson::SizeType i = 0; i < node.Size(); ++i) DropUniqueItems(node[i], names);
  }
  if (!node.IsObject()) return;
  for (rapidjson::SizeType i = 0; i < node.MemberCount(); ++i) {
    auto member = node.MemberBegin() + i;
    if (std::string_view(member->name.GetString()) == "properties" && member->value.IsObject()) {
      for (rapidjson::SizeType j = 0; j < member->value.MemberCount(); ++j) {
        auto property = member->value.MemberBegin() + j;
        if (names.count(property->name.GetString()) && property->value.IsObject()) {
          property->value.RemoveMember("uniqueItems");
        }
      }
    }
    DropUniqueItems(member->value, names);
  }
}

std::unique_ptr<ParsedSchema> LoadSchema(std::string_view file_name) {
  rapidjson::Document document = ParseEmbedded(file_name);
  auto loaded = std::make_unique<ParsedSchema>();
  std::set<std::string> not_unique;
  FindArrayProperties(document, loaded->unique_arrays, not_unique);
  for (const std::string& name : not_unique) loaded->unique_arrays.erase(name);
  DropUniqueItems(document, loaded->unique_arrays);
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  parser.populateSchema(valijson::adapters::RapidJsonAdapter(document), loaded->schema, FetchReferenced,
                        FreeReferenced);
  return loaded;
}

const ParsedSchema& LoadedSchema(OfficialSchema which) {
  if (which == OfficialSchema::kSpdx23) {
    static const std::unique_ptr<ParsedSchema> spdx = LoadSchema("spdx-schema.json");
    return *spdx;
  }
  if (which == OfficialSchema::kOpenVex020) {
    static const std::unique_ptr<ParsedSchema> openvex = LoadSchema("openvex_json_schema.json");
    return *openvex;
  }
  static const std::unique_ptr<ParsedSchema> cyclonedx = LoadSchema("bom-1.5.schema.json");
  return *cyclonedx;
}

std::string_view SchemaName(OfficialSchema which) {
  switch (which) {
    case OfficialSchema::kSpdx23:
      return "SPDX 2.3";
    case OfficialSchema::kCycloneDx15:
      return "CycloneDX 1.5";
    case OfficialSchema::kOpenVex020:
      return "OpenVEX 0.2.0";
  }
  return "";
}

// A value's text with object members sorted by name: equal JSON values (uniqueItems' equality)
// have equal texts. Numbers compare by value.
void Canonical(const rapidjson::Value& value, std::string& out) {
  if (value.IsObject()) {
    std::vector<const rapidjson::Value::Member*> members;
    for (const auto& member : value.GetObject()) members.push_back(&member);
    std::sort(members.begin(), members.end(), [](auto* a, auto* b) {
      return std::string_view(a->name.GetString(), a->name.GetStringLength()) <
             std::string_view(b->name.GetString(), b->name.GetStringLength());
    });
    out += '{';
    for (const auto* member : members) {
      Canonical(member->name, out);
      out += ':';
      Canonical(member->value, out);
      out += ',';
    }
    out += '}';
  } else if (value.IsArray()) {
    out += '[';
    for (const rapidjson::Value& item : value.GetArray()) {
      Canonical(item, out);
      out += ',';
    }
    out += ']';
  } else if (value.IsNumber()) {
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", value.GetDouble());
    out += number;
  } else if (value.IsString()) {
    out += '"';
    out.append(value.GetString(), value.GetStringLength());  // quotes inside are harmless: lengths differ
    out += std::to_string(value.GetStringLength());
    out += '"';
  } else {
    out += value.IsNull() ? "null" : value.IsTrue() ? "true" : "false";
  }
}

// uniqueItems of the arrays named in `names`, in one pass over the document: each equal pair as
// valijson would name it.
void UniqueItemViolations(const rapidjson::Value& node, const std::string& pointer, const std::set<std::string>& names,
                          std::vector<std::string>& violations) {
  if (node.IsArray()) {
    for (rapidjson::SizeType i = 0; i < node.Size(); ++i) {
      std::string item = pointer;
      AppendToken(item, std::to_string(i));
      UniqueItemViolations(node[i], item, names, violations);
    }
  }
  if (!node.IsObject()) return;
  for (const auto& member : node.GetObject()) {
    std::string inner = pointer;
    AppendToken(inner, std::string_view(member.name.GetString(), member.name.GetStringLength()));
    if (member.value.IsArray() && names.count(member.name.GetString())) {
      std::unordered_map<std::string, rapidjson::SizeType> first;
      for (rapidjson::SizeType i = 0; i < member.value.Size(); ++i) {
        std::string text;
        Canonical(member.value[i], text);
        auto [at, added] = first.emplace(std::move(text), i);
        if (!added) {
          violations.push_back(inner + ": elements at indexes #" + std::to_string(at->second) + " and #" +
                               std::to_string(i) + " are equal (uniqueItems)");
        }
      }
    }
    UniqueItemViolations(member.value, inner, names, violations);
  }
}

// valijson reports a failure again at each enclosing array item, object member and alternative of
// anyOf or if/then ("Failed to validate item #3 in array."); only the innermost report, and the
// summary of the alternatives ("... any schemas allowed by anyOf constraint"), say what is wrong.
bool RepeatsInnerFailure(const std::string& description) {
  return description.rfind("Failed to validate item #", 0) == 0 ||
         description.rfind("Failed to validate against schema associated with property name", 0) == 0 ||
         description.rfind("Failed to validate against child schema #", 0) == 0;
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
// AddressSanitizer's redzones make each frame several times larger (make asan, the fuzz builds):
// a 1 MiB string overflowed the ordinary margin there (make asan, 2026-11-25).
#if defined(__SANITIZE_ADDRESS__)
#define ICAT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ICAT_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef ICAT_ADDRESS_SANITIZER
constexpr size_t kStackPerChar = 4096;
#else
constexpr size_t kStackPerChar = 1024;
#endif
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
  const ParsedSchema* schema;
  const rapidjson::Value* document;
  valijson::ValidationResults results;
  bool valid = false;
  std::string stopped;  // why valijson stopped short of a verdict (a value it could not read)
  std::exception_ptr error;
};

void* Validate(void* argument) {
  auto* v = static_cast<Validation*>(argument);
  try {
    valijson::Validator validator;
    v->valid = validator.validate(v->schema->schema, valijson::adapters::RapidJsonAdapter(*v->document), &v->results);
  } catch (const std::runtime_error& e) {
    v->stopped = e.what();
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

void ValidateAgainstSchema(OfficialSchema which, std::string_view path, const rapidjson::Value& document) {
  size_t longest = 0;
  std::string where;
  Longest(document, "", longest, where);
  if (longest > kLongestString) {
    throw Failure(std::string(path) + ": " + where + ": a string of " + std::to_string(longest) +
                  " bytes, over the " + std::to_string(kLongestString >> 20) + " MiB a field may hold");
  }
  const ParsedSchema& schema = LoadedSchema(which);
  Validation v{&schema, &document, {}, false, {}, nullptr};
  RunOnLargeStack(v, longest);
  std::vector<std::string> violations;
  for (const valijson::ValidationResults::Error& error : v.results) {
    if (!RepeatsInnerFailure(error.description)) violations.push_back(Violation(error));
  }
  if (!v.valid && violations.empty()) {  // never seen; the outermost report is better than none
    for (const valijson::ValidationResults::Error& error : v.results) violations.push_back(Violation(error));
  }
  if (!v.stopped.empty()) violations.push_back("a value of a type the schema's checks cannot read (" + v.stopped + ")");
  UniqueItemViolations(document, "", schema.unique_arrays, violations);
  if (violations.empty()) return;
  std::string reason = std::string(path) + ": is not valid " + std::string(SchemaName(which)) + " (official schema): ";
  for (size_t i = 0; i < violations.size() && i < kNamedViolations; ++i) reason += (i ? "; " : "") + violations[i];
  if (violations.size() > kNamedViolations) {
    reason += "; and " + std::to_string(violations.size() - kNamedViolations) + " more";
  }
  throw Failure(reason);
}

}  // namespace icat::ctl
