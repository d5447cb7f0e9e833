// The served OpenAPI documents (docs/openapi.md): the source (nginx/openapi.json for /v1,
// nginx/openapi-portal.json for /api) with what the service's tables say and what is derived:
// 1. the error enum from errors.def, the webhook event enum from the vocabulary;
// 2. each operation's security from its route, after checking that operations and routes are the
//    same set and that each operation documents its route's query parameters, no more, no fewer;
// 3. nginx's answers to any request (x-icat-every-operation) in each operation, one callback per
//    webhook event type where an operation says x-icat-delivery, and the examples of
//    nginx/openapi-examples/<prefix>.json (real replies the tests recorded).
// A member is replaced in place or appended, never moved: the output keeps the source's order.
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "icat/errors.hpp"
#include "icat/json.hpp"
#include "icat/vocabulary.hpp"
#include "outputs.hpp"
#include "routes.hpp"

namespace icat::gen {
namespace {

using rapidjson::Value;
using Allocator = rapidjson::Document::AllocatorType;

constexpr std::string_view kOperations[] = {"get", "put", "post", "delete", "patch"};

bool IsOperation(std::string_view key) {
  return std::find(std::begin(kOperations), std::end(kOperations), key) != std::end(kOperations);
}

std::string_view Text(const Value& value) { return {value.GetString(), value.GetStringLength()}; }

Value String(std::string_view text, Allocator& allocator) {
  return Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
}

// The member `name` of an object; nullptr when it has none (or is no object).
Value* Member(Value& object, std::string_view name) {
  if (!object.IsObject()) return nullptr;
  auto member = object.FindMember(Value(rapidjson::StringRef(name.data(), name.size())));
  return member == object.MemberEnd() ? nullptr : &member->value;
}

const Value* Member(const Value& object, std::string_view name) { return Member(const_cast<Value&>(object), name); }

// Replaces the member's value where it stands, or appends the member.
void Set(Value& object, std::string_view name, Value value, Allocator& allocator) {
  if (Value* existing = Member(object, name)) {
    *existing = value;
  } else {
    object.AddMember(String(name, allocator), value, allocator);
  }
}

// Removes a member, keeping the others' order (RemoveMember would move the last one into its place).
void Erase(Value& object, std::string_view name) {
  if (!object.IsObject()) return;
  auto member = object.FindMember(Value(rapidjson::StringRef(name.data(), name.size())));
  if (member != object.MemberEnd()) object.EraseMember(member);
}

Value Copy(const Value& value, Allocator& allocator) { return Value(value, allocator); }

std::string Listed(const std::vector<std::string>& items) {
  std::string list;
  for (const std::string& item : items) list += "\n  " + item;
  return list;
}

// The value a local reference ("#/components/responses/NotFound") names; fails when there is none.
const Value& Resolved(const Value& root, std::string_view ref) {
  if (!ref.starts_with("#/")) throw GenError("a reference that is not local: " + std::string(ref));
  const Value* node = &root;
  for (size_t start = 2; start <= ref.size();) {
    size_t slash = std::min(ref.find('/', start), ref.size());
    node = Member(*node, ref.substr(start, slash - start));
    if (node == nullptr) throw GenError("a reference to nothing: " + std::string(ref));
    start = slash + 1;
  }
  return *node;
}

// The value, or what it refers to when it is a {"$ref": ...}.
const Value& Followed(const Value& root, const Value& value) {
  const Value* ref = Member(value, "$ref");
  return ref != nullptr && ref->IsString() ? Resolved(root, Text(*ref)) : value;
}

// ------------------------------------------------------------------ 1. the enums

// Replaced where it stands, so the document differs only in the enum.
template <typename Names>
void SetEnum(Value& schema, const Names& names, Allocator& allocator) {
  Value values(rapidjson::kArrayType);
  for (const auto& name : names) values.PushBack(String(name, allocator), allocator);
  Set(schema, "enum", std::move(values), allocator);
}

void FillEnums(rapidjson::Document& doc, const std::string& source) {
  Allocator& allocator = doc.GetAllocator();
  Value* schemas = Member(doc, "components") ? Member(*Member(doc, "components"), "schemas") : nullptr;
  Value* error = schemas && Member(*schemas, "Error") ? Member(*Member(*schemas, "Error"), "properties") : nullptr;
  error = error ? Member(*error, "error") : nullptr;
  if (error == nullptr || !error->IsObject()) {
    throw GenError(source + ": components.schemas.Error.properties.error is missing or not an object");
  }
  std::vector<std::string_view> errors;
  for (const ErrorInfo& info : AllErrors()) errors.push_back(info.name);
  SetEnum(*error, errors, allocator);
  Value* event_type = schemas ? Member(*schemas, "EventType") : nullptr;
  if (event_type != nullptr && event_type->IsObject()) SetEnum(*event_type, kEventTypes, allocator);
}

// ------------------------------------------------------------------ 2. security from the routes

// nginx serves each document itself, to anyone.
const Route kV1Document = {.method = "GET", .pattern = "/v1/openapi.json", .access = Access::kPublic};
const Route kApiDocument = {.method = "GET", .pattern = "/api/openapi.json", .access = Access::kPublic};

// "GET /v1/images/{}" → its route, for every route under /<prefix>/ and the document's own.
std::map<std::string, const Route*> RoutesUnder(std::string_view prefix) {
  std::map<std::string, const Route*> routes;
  auto add = [&](const Route& route) { routes[Shape(route.pattern) + " " + Lower(route.method)] = &route; };
  for (const Row& row : Rows()) {
    if (row.route->pattern.starts_with("/" + std::string(prefix) + "/")) add(*row.route);
  }
  add(prefix == "v1" ? kV1Document : kApiDocument);
  return routes;
}

// The query parameters an operation documents (its path's and its own, references followed), sorted.
std::vector<std::string> DocumentedQuery(const Value& root, const Value& item, const Value& operation) {
  std::vector<std::string> names;
  for (const Value* holder : {&item, &operation}) {
    const Value* parameters = Member(*holder, "parameters");
    if (parameters == nullptr || !parameters->IsArray()) continue;
    for (const Value& parameter : parameters->GetArray()) {
      const Value& p = Followed(root, parameter);
      const Value* in = Member(p, "in");
      const Value* name = Member(p, "name");
      if (in && in->IsString() && Text(*in) == "query" && name && name->IsString()) names.emplace_back(Text(*name));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> RouteQuery(const Route& route) {
  std::vector<std::string> names;
  for (std::string_view name : QueryNames(route)) names.emplace_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return "[" + text + "]";
}

// Fails unless the document's operations and the routes are the same, each with the same query parameters.
void CheckOperations(const Value& doc, const std::map<std::string, const Route*>& routes) {
  std::vector<std::string> unrouted, mismatched;
  std::map<std::string, bool> documented;
  for (const auto& item : doc["paths"].GetObject()) {
    for (const auto& operation : item.value.GetObject()) {
      if (!IsOperation(Text(operation.name))) continue;
      std::string key = Shape(Text(item.name)) + " " + std::string(Text(operation.name));
      documented[key] = true;
      auto route = routes.find(key);
      if (route == routes.end()) {
        unrouted.push_back(key);
        continue;
      }
      std::vector<std::string> query = DocumentedQuery(doc, item.value, operation.value),
                               wanted = RouteQuery(*route->second);
      if (query != wanted) mismatched.push_back(key + ": documented " + Joined(query) + ", route " + Joined(wanted));
    }
  }
  std::vector<std::string> undocumented;
  for (const auto& [key, route] : routes) {
    if (!documented.contains(key)) undocumented.push_back(key);
  }
  if (!unrouted.empty()) throw GenError("operations without a route:" + Listed(unrouted));
  if (!undocumented.empty()) throw GenError("routes without an operation:" + Listed(undocumented));
  if (!mismatched.empty()) throw GenError("query parameters differ from the route table:" + Listed(mismatched));
}

// What an operation gets from its route: no security for a public route or one whose path carries
// the key ({key}); the API key and its scope (x-icat-scope) on /v1; the portal's access token and
// tenant and the least role (x-icat-role) on /api. OpenAPI 3.0 has no scopes for http schemes,
// hence the extensions.
void SetSecurity(Value& operation, const Route& route, Allocator& allocator) {
  auto requirement = [&](std::initializer_list<std::string_view> schemes) {
    Value object(rapidjson::kObjectType);
    for (std::string_view scheme : schemes)
      object.AddMember(String(scheme, allocator), Value(rapidjson::kArrayType), allocator);
    return object;
  };
  Value security(rapidjson::kArrayType);
  std::string_view role = PortalRole(route.access);
  bool key_in_path = route.pattern.find("{" + std::string(kKeyParam) + "}") != std::string_view::npos;
  if (route.access == Access::kApiKey && !key_in_path) {
    security.PushBack(requirement({"bearerApiKey"}), allocator).PushBack(requirement({"headerApiKey"}), allocator);
  } else if (!role.empty()) {
    security.PushBack(requirement({"bearerAccessToken", "tenantHeader"}), allocator);
  } else if (route.access != Access::kPublic && route.access != Access::kApiKey) {
    throw GenError(RouteName(route) + ": no OpenAPI security for access " + std::string(AccessName(route.access)));
  }
  Set(operation, "security", std::move(security), allocator);
  if (route.access == Access::kApiKey)
    Set(operation, "x-icat-scope", String(NameOf(*route.scope), allocator), allocator);
  if (!role.empty()) Set(operation, "x-icat-role", String(role, allocator), allocator);
}

void AddSecurity(rapidjson::Document& doc, std::string_view prefix) {
  Value* paths = Member(doc, "paths");
  if (paths == nullptr || !paths->IsObject()) throw GenError("the document has no paths");
  std::map<std::string, const Route*> routes = RoutesUnder(prefix);
  CheckOperations(doc, routes);
  Erase(doc, "security");
  for (auto& item : paths->GetObject()) {
    for (auto& operation : item.value.GetObject()) {
      if (!IsOperation(Text(operation.name))) continue;
      const Route& route = *routes.at(Shape(Text(item.name)) + " " + std::string(Text(operation.name)));
      SetSecurity(operation.value, route, doc.GetAllocator());
    }
  }
}

// ------------------------------------------------------------------ 3. what is derived

struct Event {
  std::string type;    // the schema's x-icat-event
  std::string schema;  // its name under components.schemas
  const Value* description;
};

// The schemas marked x-icat-event; fails unless they are one per type of EventType.
std::vector<Event> Events(const Value& doc) {
  std::vector<Event> events;
  const Value* components = Member(doc, "components");
  const Value* schemas = components ? Member(*components, "schemas") : nullptr;
  std::vector<std::string> marked, listed;
  if (schemas != nullptr && schemas->IsObject()) {
    for (const auto& schema : schemas->GetObject()) {
      const Value* type = Member(schema.value, "x-icat-event");
      if (type == nullptr || type->IsNull()) continue;
      if (!type->IsString()) throw GenError("x-icat-event of " + std::string(Text(schema.name)) + " is not a string");
      events.push_back({std::string(Text(*type)), std::string(Text(schema.name)), Member(schema.value, "description")});
      marked.push_back(events.back().type);
    }
    const Value* event_type = Member(*schemas, "EventType");
    const Value* values = event_type ? Member(*event_type, "enum") : nullptr;
    if (values != nullptr && values->IsArray()) {
      for (const Value& value : values->GetArray()) listed.emplace_back(value.IsString() ? Text(value) : "?");
    }
  }
  std::vector<std::string> unsorted_marked = marked, unsorted_listed = listed;
  std::sort(marked.begin(), marked.end());
  std::sort(listed.begin(), listed.end());
  if (marked != listed) {
    throw GenError("webhook event types " + Joined(unsorted_listed) + " but schemas with x-icat-event for " +
                   Joined(unsorted_marked));
  }
  return events;
}

// "deliverImagePublished" for "image.published".
std::string DeliveryOperationId(std::string_view type) {
  std::string id = "deliver";
  bool start = true;
  for (char c : type) {
    if (c == '.' || c == '_') {
      start = true;
    } else {
      id += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      start = false;
    }
  }
  return id;
}

// One callback per event type: a POST to the subscription's url of the event's schema, with what
// x-icat-delivery says of every delivery (headers, answers).
Value Callbacks(const std::vector<Event>& events, const Value& delivery, Allocator& allocator) {
  Value callbacks(rapidjson::kObjectType);
  for (const Event& event : events) {
    Value post(rapidjson::kObjectType);
    post.AddMember("summary", event.description ? Copy(*event.description, allocator) : Value(), allocator);
    post.AddMember("operationId", String(DeliveryOperationId(event.type), allocator), allocator);
    for (const auto& member : delivery.GetObject())
      Set(post, Text(member.name), Copy(member.value, allocator), allocator);
    Value ref(rapidjson::kObjectType), typed(rapidjson::kObjectType), properties(rapidjson::kObjectType),
        type(rapidjson::kObjectType), one(rapidjson::kArrayType), all_of(rapidjson::kArrayType);
    ref.AddMember("$ref", String("#/components/schemas/" + event.schema, allocator), allocator);
    one.PushBack(String(event.type, allocator), allocator);
    type.AddMember("type", "string", allocator).AddMember("enum", one, allocator);
    properties.AddMember("type", type, allocator);
    typed.AddMember("type", "object", allocator).AddMember("properties", properties, allocator);
    all_of.PushBack(ref, allocator).PushBack(typed, allocator);
    Value schema(rapidjson::kObjectType), json(rapidjson::kObjectType), content(rapidjson::kObjectType),
        body(rapidjson::kObjectType);
    schema.AddMember("allOf", all_of, allocator);
    json.AddMember("schema", schema, allocator);
    content.AddMember("application/json", json, allocator);
    body.AddMember("required", true, allocator).AddMember("content", content, allocator);
    Set(post, "requestBody", std::move(body), allocator);
    Value expression(rapidjson::kObjectType), callback(rapidjson::kObjectType);
    expression.AddMember("post", post, allocator);
    callback.AddMember("{$request.body#/url}", expression, allocator);
    callbacks.AddMember(String(event.type, allocator), callback, allocator);
  }
  return callbacks;
}

// The example beside a body's JSON schema, when there is one for it.
void SetExample(Value& body, const Value* example, Allocator& allocator) {
  Value* content = Member(body, "content");
  Value* json = content ? Member(*content, "application/json") : nullptr;
  if (example != nullptr && json != nullptr && !json->IsNull())
    Set(*json, "example", Copy(*example, allocator), allocator);
}

// What an operation of the derivation gets (Derive): nginx's responses, callbacks, examples.
struct Derivation {
  const Value& root;      // the document as it came, what references are read from
  const Value& every;     // x-icat-every-operation's responses
  const Value& examples;  // nginx/openapi-examples/<prefix>.json, or {}
  const std::vector<Event>& events;
  Allocator& allocator;

  // A null example is none.
  const Value* Example(const std::string& key) const {
    const Value* example = Member(examples, key);
    return example && !example->IsNull() ? example : nullptr;
  }
};

void DeriveOperation(const Derivation& d, const std::string& method, std::string_view path, Value& operation) {
  Value responses = Copy(d.every, d.allocator);
  if (Value* own = Member(operation, "responses"); own && own->IsObject()) {
    for (auto& response : own->GetObject())
      Set(responses, Text(response.name), Copy(response.value, d.allocator), d.allocator);
  }
  Set(operation, "responses", std::move(responses), d.allocator);
  if (const Value* delivery = Member(operation, "x-icat-delivery")) {
    Set(operation, "callbacks", Callbacks(d.events, *delivery, d.allocator), d.allocator);
    Erase(operation, "x-icat-delivery");
  }
  // A shared response with an example is inlined: a $ref can have no sibling.
  for (auto& response : Member(operation, "responses")->GetObject()) {
    const Value* example = d.Example(method + " " + std::string(path) + " " + std::string(Text(response.name)));
    if (example == nullptr) continue;
    response.value = Copy(Followed(d.root, response.value), d.allocator);
    SetExample(response.value, example, d.allocator);
  }
  if (Value* body = Member(operation, "requestBody"); body && !body->IsNull()) {
    *body = Copy(Followed(d.root, *body), d.allocator);
    SetExample(*body, d.Example(method + " " + std::string(path) + " request"), d.allocator);
  }
  if (Value* callbacks = Member(operation, "callbacks"); callbacks && callbacks->IsObject()) {
    for (auto& callback : callbacks->GetObject()) {
      for (auto& expression : callback.value.GetObject()) {
        Value* post = Member(expression.value, "post");
        Value* body = post ? Member(*post, "requestBody") : nullptr;
        if (body) SetExample(*body, d.Example("event " + std::string(Text(callback.name))), d.allocator);
      }
    }
  }
}

// The names of the shared responses some "$ref" anywhere in the document uses.
void CollectUsedResponses(const Value& value, std::vector<std::string>& used) {
  constexpr std::string_view kPrefix = "#/components/responses/";
  if (value.IsObject()) {
    const Value* ref = Member(value, "$ref");
    if (ref && ref->IsString() && Text(*ref).starts_with(kPrefix)) used.emplace_back(Text(*ref).substr(kPrefix.size()));
    for (const auto& member : value.GetObject()) CollectUsedResponses(member.value, used);
  } else if (value.IsArray()) {
    for (const Value& item : value.GetArray()) CollectUsedResponses(item, used);
  }
}

// A shared response every operation now holds inlined, with its example, is left out.
void DropUnusedResponses(rapidjson::Document& doc) {
  Value* components = Member(doc, "components");
  Value* responses = components ? Member(*components, "responses") : nullptr;
  if (responses == nullptr || responses->IsNull()) return;
  std::vector<std::string> used;
  CollectUsedResponses(doc, used);
  for (auto member = responses->MemberBegin(); member != responses->MemberEnd();) {
    bool is_used = std::find(used.begin(), used.end(), Text(member->name)) != used.end();
    member = is_used ? member + 1 : responses->EraseMember(member);
  }
  if (responses->ObjectEmpty()) Erase(*components, "responses");
}

void AddDerived(rapidjson::Document& doc, std::string_view prefix) {
  Allocator& allocator = doc.GetAllocator();
  std::string examples_path = "nginx/openapi-examples/" + std::string(prefix) + ".json";
  rapidjson::Document examples;
  examples.SetObject();
  if (std::filesystem::exists(examples_path)) examples = ReadJsonFile(examples_path);
  rapidjson::Document root;  // references are read from the document as it came to this step
  root.CopyFrom(doc, root.GetAllocator());
  Value every(rapidjson::kObjectType);
  if (const Value* operation = Member(doc, "x-icat-every-operation")) {
    if (const Value* responses = Member(*operation, "responses")) every.CopyFrom(*responses, allocator);
  }
  std::vector<Event> events = Events(root);
  Erase(doc, "x-icat-every-operation");
  Derivation derivation{root, every, examples, events, allocator};
  for (auto& item : doc["paths"].GetObject()) {
    for (auto& operation : item.value.GetObject()) {
      if (IsOperation(Text(operation.name))) {
        DeriveOperation(derivation, Upper(Text(operation.name)), Text(item.name), operation.value);
      }
    }
  }
  DropUnusedResponses(doc);
}

}  // namespace

std::string OpenApi(std::string_view prefix, const std::string& source) {
  if (prefix != "v1" && prefix != "api") throw GenError("no OpenAPI document for /" + std::string(prefix));
  rapidjson::Document doc = ReadJsonFile(source);
  FillEnums(doc, source);
  AddSecurity(doc, prefix);
  AddDerived(doc, prefix);
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  doc.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace icat::gen
