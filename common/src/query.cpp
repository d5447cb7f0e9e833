// Query parameters as data: the declarations of a row, and the values of a request parsed by them.
#include "icat/query.hpp"

#include <algorithm>
#include <cstdlib>

#include "icat/paging.hpp"
#include "icat/validate.hpp"

namespace icat {

namespace query {
QueryParam Limit() { return {.name = "limit", .kind = QueryKind::kLimit}; }
QueryParam Cursor(std::vector<CursorField> fields) {
  return {.name = "cursor", .kind = QueryKind::kCursor, .fields = std::move(fields)};
}
QueryParam Word(std::string_view name, std::vector<std::string_view> words, std::string problem) {
  return {.name = name, .kind = QueryKind::kWord, .words = std::move(words), .problem = std::move(problem)};
}
QueryParam Word(std::string_view name, std::vector<std::string_view> words) {
  std::string problem = OneOf(words);
  return Word(name, std::move(words), std::move(problem));
}
QueryParam Words(std::string_view name, std::vector<std::string_view> words) {
  return {.name = name, .kind = QueryKind::kWords, .words = std::move(words)};
}
QueryParam Time(std::string_view name, std::string_view not_before) {
  return {.name = name, .kind = QueryKind::kTime, .not_before = not_before};
}
QueryParam Text(std::string_view name, size_t min_chars, size_t max_chars) {
  return {.name = name, .kind = QueryKind::kText, .min_chars = min_chars, .max_chars = max_chars};
}
QueryParam Digest(std::string_view name) { return {.name = name, .kind = QueryKind::kDigest}; }
QueryParam Reference(std::string_view name) { return {.name = name, .kind = QueryKind::kReference}; }
QueryParam Number(std::string_view name, long max) { return {.name = name, .kind = QueryKind::kNumber, .max = max}; }
QueryParam Fraction(std::string_view name) { return {.name = name, .kind = QueryKind::kFraction}; }
QueryParam RefusedOnRead(QueryParam param) {
  param.refused_on_read = true;
  return param;
}
}  // namespace query

namespace {

bool IsName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

const QueryParam* Declared(const std::vector<QueryParam>& params, std::string_view name) {
  for (const QueryParam& p : params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// What one declaration lacks for its kind; empty when nothing.
std::string KindProblem(const QueryParam& p, const std::vector<QueryParam>& earlier) {
  switch (p.kind) {
    case QueryKind::kCursor:
      return p.fields.empty() ? "is a cursor of no fields" : "";
    case QueryKind::kWord:
      if (p.problem.empty()) return "is a word with no problem to answer";
      [[fallthrough]];
    case QueryKind::kWords:
      return p.words.empty() ? "has no words" : "";
    case QueryKind::kText:
      return p.max_chars < p.min_chars || (p.min_chars > 0 && p.max_chars == 0) ? "has no sound length bounds" : "";
    case QueryKind::kNumber:
      return p.max <= 0 ? "has no maximum" : "";
    case QueryKind::kTime: {
      if (p.not_before.empty()) return "";
      const QueryParam* other = Declared(earlier, p.not_before);
      return other && other->kind == QueryKind::kTime ? "" : "is not_before what is no earlier time parameter";
    }
    default:
      return "";
  }
}

bool IsCursorField(CursorField form, const std::string& field) {
  switch (form) {
    case CursorField::kDigits:
      return IsDigits(field, 18);
    case CursorField::kUuid:
      return IsUuid(field);
    case CursorField::kTime:
      return ParseRfc3339(field).has_value();
    case CursorField::kTag:
      return IsImageTag(field);
    case CursorField::kText:
      return true;
  }
  return false;
}

std::string Joined(const std::vector<std::string_view>& words) {
  std::string joined;
  for (std::string_view w : words) joined += (joined.empty() ? "" : ", ") + std::string(w);
  return joined;
}

// The comma-separated words of `text`, or nullopt when one of them is not of `words`.
std::optional<std::vector<std::string>> WordList(const std::string& text, const std::vector<std::string_view>& words) {
  std::vector<std::string> found;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string word = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (std::find(words.begin(), words.end(), word) == words.end()) return std::nullopt;
    found.push_back(std::move(word));
    if (comma == std::string::npos) return found;
    start = comma + 1;
  }
}

}  // namespace

std::string QueryDeclarationProblem(const std::vector<QueryParam>& params) {
  std::vector<QueryParam> earlier;
  for (const QueryParam& p : params) {
    std::string name = "query parameter \"" + std::string(p.name) + "\" ";
    if (!IsName(p.name)) return name + "is not a name of letters, digits and '_'";
    if (Declared(earlier, p.name)) return name + "is declared twice";
    std::string problem = KindProblem(p, earlier);
    if (!problem.empty()) return name + problem;
    earlier.push_back(p);
  }
  return "";
}

QueryValues::QueryValues(const std::vector<QueryParam>& params, const QueryPairs& sent) {
  for (const QueryParam& p : params) {
    auto pair = std::find_if(sent.begin(), sent.end(), [&](const auto& s) { return s.first == p.name; });
    if (pair == sent.end()) continue;
    Value& v = values_.emplace_back(Value{.param = &p, .text = pair->second});
    auto refuse = [&](std::string issue) { v.issue = FieldIssue{std::string(p.name), std::move(issue)}; };
    switch (p.kind) {
      case QueryKind::kLimit:
        v.number = IsDigits(v.text, 4) ? std::stoi(v.text) : 0;
        if (v.number < 1 || v.number > kMaxLimit)
          refuse("must be a whole number from 1 to " + std::to_string(kMaxLimit));
        break;
      case QueryKind::kCursor: {
        std::optional<std::vector<std::string>> fields = DecodeCursor(v.text, p.fields.size());
        bool formed = fields.has_value();
        for (size_t i = 0; formed && i < fields->size(); i++) formed = IsCursorField(p.fields[i], (*fields)[i]);
        if (formed)
          v.items = std::move(*fields);
        else
          refuse("is not a cursor returned by this list");
        break;
      }
      case QueryKind::kWord:
        if (std::find(p.words.begin(), p.words.end(), v.text) == p.words.end()) refuse(p.problem);
        break;
      case QueryKind::kWords: {
        std::optional<std::vector<std::string>> words = WordList(v.text, p.words);
        if (words)
          v.items = std::move(*words);
        else
          refuse("must be one or more of " + Joined(p.words) + " (comma-separated)");
        break;
      }
      case QueryKind::kTime: {
        std::optional<long long> seconds = ParseRfc3339(v.text);
        if (!seconds) {
          refuse("must be an RFC 3339 time such as 2026-01-31T12:00:00Z");
          break;
        }
        v.number = *seconds;
        const Value* other = nullptr;
        for (const Value& earlier : values_) other = earlier.param->name == p.not_before ? &earlier : other;
        if (other && !other->issue && v.number < other->number)
          refuse("must not be before " + std::string(p.not_before));
        break;
      }
      case QueryKind::kText:
        if (p.min_chars > 0 && (v.text.size() < p.min_chars || v.text.size() > p.max_chars)) {
          refuse("must have " + std::to_string(p.min_chars) + " to " + std::to_string(p.max_chars) + " characters");
        } else if (p.max_chars > 0 && v.text.size() > p.max_chars) {
          refuse("must be at most " + std::to_string(p.max_chars) + " characters");
        }
        break;
      case QueryKind::kDigest:
        if (!v.text.starts_with("sha256:") || !IsImageDigest(v.text)) {
          refuse("must be sha256: and 64 lower-case hexadecimal digits");
        }
        break;
      case QueryKind::kReference:
        v.reference = ParseImageReference(v.text);
        if (!v.reference) {
          refuse(
              "must be an image reference such as registry.example.test/hardened/nginx:1.27, "
              "...nginx@sha256:<64 hex> or ...nginx:1.27@sha256:<64 hex>");
        }
        break;
      case QueryKind::kFraction: {
        // Digits only (no sign, exponent or hex), so that Postgres reads the same number.
        bool decimal = !v.text.empty() && v.text.size() <= 20 && v.text.front() != '.' && v.text.back() != '.' &&
                       v.text.find_first_not_of("0123456789.") == std::string::npos &&
                       std::count(v.text.begin(), v.text.end(), '.') <= 1;
        if (!decimal || std::strtod(v.text.c_str(), nullptr) > 1) refuse("must be a decimal from 0 to 1, such as 0.5");
        break;
      }
      case QueryKind::kNumber: {
        char* end = nullptr;
        v.number = std::strtol(v.text.c_str(), &end, 10);
        if (v.text.empty() || *end != '\0' || v.number < 0 || v.number > p.max) {
          refuse("must be a number from 0 to " + std::to_string(p.max));
        }
        break;
      }
    }
  }
}

void QueryValues::RefuseInvalid() const {
  for (const Value& v : values_) {
    if (v.issue && !v.param->refused_on_read) ThrowInvalid(v.issue->field, v.issue->issue);
  }
}

const QueryValues::Value* QueryValues::Find(std::string_view name) const {
  for (const Value& v : values_) {
    if (v.param->name != name) continue;
    if (v.issue) ThrowInvalid(v.issue->field, v.issue->issue);
    return &v;
  }
  return nullptr;
}

bool QueryValues::Has(std::string_view name) const {
  return std::any_of(values_.begin(), values_.end(), [&](const Value& v) { return v.param->name == name; });
}

int QueryValues::Limit() const {
  const Value* v = Find("limit");
  return v ? static_cast<int>(v->number) : kDefaultLimit;
}

std::optional<std::vector<std::string>> QueryValues::Cursor() const {
  const Value* v = Find("cursor");
  return v ? std::optional(v->items) : std::nullopt;
}

std::optional<std::string> QueryValues::Text(std::string_view name) const {
  const Value* v = Find(name);
  return v ? std::optional(v->text) : std::nullopt;
}

std::optional<std::vector<std::string>> QueryValues::Words(std::string_view name) const {
  const Value* v = Find(name);
  return v ? std::optional(v->items) : std::nullopt;
}

std::optional<long> QueryValues::Number(std::string_view name) const {
  const Value* v = Find(name);
  return v ? std::optional(static_cast<long>(v->number)) : std::nullopt;
}

std::optional<ImageReference> QueryValues::Reference(std::string_view name) const {
  const Value* v = Find(name);
  return v ? v->reference : std::nullopt;
}

}  // namespace icat
