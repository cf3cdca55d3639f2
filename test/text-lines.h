/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TEST_TEXT_LINES_H
#define MLFABRIC_TEST_TEXT_LINES_H

#include <fstream>
#include <string>
#include <vector>

/** \return the lines of a text file; none if it cannot be read */
inline std::vector<std::string>
Lines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

#endif /* MLFABRIC_TEST_TEXT_LINES_H */
