#include "ghostpost/league/trf.h"

#include <cstdio>

namespace ghostpost::bot::trf {

namespace {

std::string right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string left(std::string s, std::size_t width) {
    if (s.size() > width)
        s.resize(width);
    return s + std::string(width - s.size(), ' ');
}

} // namespace

std::string cell(int opponent, char colour, char result) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, opponent ? "%4d %c %c" : "%04d %c %c", opponent, colour,
                  result);
    return buffer;
}

std::string player_line(int number, const std::string& name, double points, int rank,
                        const std::vector<std::string>& cells) {
    char points_text[8];
    std::snprintf(points_text, sizeof points_text, "%4.1f", points);
    std::string line = "001 " + right(std::to_string(number), 4) + " " + std::string(5, ' ') +
                       left(name, 33) + " " + std::string(4, ' ') + " " + std::string(3, ' ') +
                       " " + std::string(11, ' ') + " " + std::string(10, ' ') + " " + points_text +
                       " " + right(std::to_string(rank), 4);
    for (const auto& c : cells)
        line += "  " + (c.empty() ? cell(0, '-', 'Z') : c);
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    return line;
}

} // namespace ghostpost::bot::trf
