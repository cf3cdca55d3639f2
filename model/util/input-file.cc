/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-file.h"

#include "ns3/input-error.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ns3
{

void
CheckInputFile(const std::string& path, const std::string& what)
{
    const std::string where = (what.empty() ? "" : what + ": ") + path + ": ";
    if (path.empty())
    {
        throw InputError((what.empty() ? std::string("input") : what) + ": no file given");
    }
    struct stat info
    {
    };

    if (::stat(path.c_str(), &info) != 0)
    {
        throw InputError(where + (errno == ENOENT ? std::string("no such file")
                                                  : std::string(std::strerror(errno))));
    }
    if (S_ISDIR(info.st_mode))
    {
        throw InputError(where + "is a directory, not a file");
    }
    if (!S_ISREG(info.st_mode))
    {
        return; // a device or pipe: its size says nothing, and reading it would consume it
    }
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
    {
        throw InputError(where + "cannot be read: " + std::strerror(errno));
    }
    if (info.st_size == 0)
    {
        throw InputError(where + "is empty");
    }
}

} // namespace ns3
