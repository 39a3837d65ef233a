#pragma once
// Whitespace-separated tokens of a text with their 1-based line numbers: what the instance
// readers (common/instance_source.cpp, common/taillard_file.cpp; any room's) report errors at.
#include <cctype>
#include <cstddef>
#include <optional>
#include <string_view>

namespace permbb {

struct Token {
  std::string_view text;
  int line;
};

// Copyable, so that a copy can look ahead (count what is left) without disturbing the
// original. Lines break at '\n'; '\r' and other whitespace separate tokens.
class TokenScanner {
 public:
  explicit TokenScanner(std::string_view text) : text_(text) {}

  std::optional<Token> next() {
    while (pos_ < text_.size() && is_space(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ == text_.size()) return std::nullopt;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
    return Token{text_.substr(start, pos_ - start), line_};
  }

 private:
  static bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace permbb
