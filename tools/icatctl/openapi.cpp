// icatctl openapi FILE: prints the OpenAPI document with the Error schema's `error` enum filled
// from errors.def, so the published enum can never drift from the one the service answers with.
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "session.hpp"

namespace icat::ctl {
namespace {

constexpr const char* kErrorSchemaPath[] = {"components", "schemas", "Error", "properties", "error"};
const std::string kFullPath = "components.schemas.Error.properties.error";

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Failure("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The object at components.schemas.Error.properties.error; a Failure naming the first missing step.
rapidjson::Value& ErrorProperty(rapidjson::Value& root, const std::string& path) {
  rapidjson::Value* node = &root;
  std::string walked;
  for (const char* step : kErrorSchemaPath) {
    walked += walked.empty() ? step : "." + std::string(step);
    rapidjson::Value* next = nullptr;
    if (node->IsObject()) {
      auto member = node->FindMember(step);
      if (member != node->MemberEnd() && member->value.IsObject()) next = &member->value;
    }
    if (next == nullptr) {
      std::string why = walked == kFullPath ? "" : " (" + walked + " is not an object)";
      throw Failure(path + ": " + kFullPath + " is missing or not an object" + why);
    }
    node = next;
  }
  return *node;
}

}  // namespace

void OpenApi(const Args& args) {
  const std::string& path = args.Positional(0);
  std::string text = ReadFile(path);
  JsonRead read = ReadJson(text, kMaxDocumentDepth);
  if (!read.error.empty()) throw Failure(path + " is not valid JSON: " + read.error);
  rapidjson::Document& document = read.document;
  rapidjson::Value& error_property = ErrorProperty(document, path);
  auto& allocator = document.GetAllocator();
  rapidjson::Value names(rapidjson::kArrayType);
  for (const ErrorInfo& info : AllErrors()) {
    names.PushBack(rapidjson::Value(info.name.data(), static_cast<rapidjson::SizeType>(info.name.size()), allocator),
                   allocator);
  }
  // Replaced in place when present, so the output differs from the input only in the enum.
  auto existing = error_property.FindMember("enum");
  if (existing != error_property.MemberEnd()) {
    existing->value = names;
  } else {
    error_property.AddMember("enum", names, allocator);
  }

  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  document.Accept(writer);
  std::cout << buffer.GetString() << '\n';
}

}  // namespace icat::ctl
