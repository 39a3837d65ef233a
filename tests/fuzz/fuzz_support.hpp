#pragma once
// What the fuzz targets share: a broken property aborts (libFuzzer then saves the input as a
// crash), and a decoder may refuse an input only with the one exception type its contract
// names; any other exception is a finding too.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

namespace permbb::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// `what` is a literal: no message is built on the hot path when the property holds.
inline void check(bool holds, const char* what) {
  if (!holds) fail(what);
}

// The input as text, for the readers of text files.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs decode(). A refusal of exactly type Refusal gives nullopt after `check_refusal` has
// looked at it (its message); any other exception, a subclass of Refusal included, is a
// finding.
template <class Refusal, class Decode, class CheckRefusal>
auto decode_or_refuse(Decode&& decode, CheckRefusal&& check_refusal)
    -> std::optional<decltype(decode())> {
  try {
    return decode();
  } catch (const Refusal& e) {
    if (typeid(e) != typeid(Refusal)) {
      fail(std::string("refused with a ") + typeid(e).name() + " instead of a " +
           typeid(Refusal).name() + ": " + e.what());
    }
    check_refusal(std::string_view(e.what()));
    return std::nullopt;
  } catch (const std::exception& e) {
    fail(std::string("unexpected ") + typeid(e).name() + ": " + e.what());
  } catch (...) {
    fail("unexpected exception that is not a std::exception");
  }
}

// Runs f(), which must not throw.
template <class F>
void check_no_exception(F&& f, const char* what) {
  try {
    f();
  } catch (const std::exception& e) {
    fail(std::string(what) + ": " + e.what());
  } catch (...) {
    fail(what);
  }
}

// What the project promises of a refusal of bad input (input_error.hpp): one line, naming
// the place first.
inline void check_one_line_naming(std::string_view message, std::string_view place) {
  if (message.substr(0, place.size()) != place) {
    fail("the message does not start with " + std::string(place) + ": " + std::string(message));
  }
  if (message.find('\n') != std::string_view::npos) {
    fail("the message spans several lines: " + std::string(message));
  }
}

}  // namespace permbb::fuzz
