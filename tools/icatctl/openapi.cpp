// icatctl openapi FILE: prints the OpenAPI document with the Error schema's `error` enum filled
// from errors.def and, where the document has one, the EventType schema's enum from the webhook
// event types (icat/vocabulary.hpp), so neither published list can drift from the service's.
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/vocabulary.hpp"
#include "ingest/session.hpp"

namespace icat::ctl {
namespace {

const std::vector<std::string> kErrorPath = {"components", "schemas", "Error", "properties", "error"};
const std::vector<std::string> kEventTypePath = {"components", "schemas", "EventType"};

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Failure("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The object at these steps; nullptr when a step is missing, with `missing` naming it (or what is
// not an object).
rapidjson::Value* ObjectAt(rapidjson::Value& root, const std::vector<std::string>& steps, std::string& missing) {
  rapidjson::Value* node = &root;
  std::string walked;
  for (const std::string& step : steps) {
    walked += walked.empty() ? step : "." + step;
    auto member = node->IsObject() ? node->FindMember(step.c_str()) : node->MemberEnd();
    if (!node->IsObject() || member == node->MemberEnd() || !member->value.IsObject()) {
      missing = walked;
      return nullptr;
    }
    node = &member->value;
  }
  return node;
}

std::string Joined(const std::vector<std::string>& steps) {
  std::string text;
  for (const std::string& step : steps) text += (text.empty() ? "" : ".") + step;
  return text;
}

// Replaced in place when present, so the output differs from the input only in the enum.
template <typename Names>
void SetEnum(rapidjson::Value& schema, const Names& names, rapidjson::Document::AllocatorType& allocator) {
  rapidjson::Value values(rapidjson::kArrayType);
  for (const auto& name : names) {
    values.PushBack(rapidjson::Value(name.data(), static_cast<rapidjson::SizeType>(name.size()), allocator), allocator);
  }
  auto existing = schema.FindMember("enum");
  if (existing != schema.MemberEnd()) {
    existing->value = values;
  } else {
    schema.AddMember("enum", values, allocator);
  }
}

}  // namespace

void OpenApi(const Args& args) {
  const std::string& path = args.Positional(0);
  std::string text = ReadFile(path);
  JsonRead read = ReadJson(text, kMaxDocumentDepth);
  if (!read.error.empty()) throw Failure(path + " is not valid JSON: " + read.error);
  rapidjson::Document& document = read.document;
  auto& allocator = document.GetAllocator();
  std::string missing;
  rapidjson::Value* error_property = ObjectAt(document, kErrorPath, missing);
  if (error_property == nullptr) {
    std::string why = missing == Joined(kErrorPath) ? "" : " (" + missing + " is missing or not an object)";
    throw Failure(path + ": " + Joined(kErrorPath) + " is missing or not an object" + why);
  }
  std::vector<std::string_view> errors;
  for (const ErrorInfo& info : AllErrors()) errors.push_back(info.name);
  SetEnum(*error_property, errors, allocator);
  if (rapidjson::Value* event_type = ObjectAt(document, kEventTypePath, missing)) {
    SetEnum(*event_type, kEventTypes, allocator);
  }

  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  document.Accept(writer);
  std::cout << buffer.GetString() << '\n';
}

}  // namespace icat::ctl
