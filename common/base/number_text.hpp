#pragma once
#include <sstream>
#include <string>

namespace permbb {

// A number as messages print it (shortest form, as given): "0.5", "120", "1e+300".
template <class T>
std::string number_text(T value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace permbb
