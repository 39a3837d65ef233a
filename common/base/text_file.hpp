#pragma once
// What every instance reader shares (flowshop, knapsack, P||Cmax files): reading a whole file
// and showing a token in a one-line error message.
#include <string>
#include <string_view>

namespace permbb {

// The whole file; a file that cannot be opened or read, or is not a regular file (a FIFO, a
// device, a folder), is an InputError naming it.
std::string read_file_text(const std::string& path);

// Instance text as every reader takes it (flowshop, knapsack and P||Cmax alike): a UTF-8
// byte-order mark at its start (an editor's) dropped, and each '#' comment, to the end of its
// line, removed; line breaks stay, so the line numbers in messages stay true.
std::string without_comments(std::string_view text);

// A token as shown in a message: quoted, at most 32 characters, non-printable ones as '?', so
// the message stays one readable line whatever the file holds.
std::string quoted_token(std::string_view text);

}  // namespace permbb
