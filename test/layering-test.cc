/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The module's layering: model code never includes helper code, and every header is
// included by its ns-3 name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{

namespace fs = std::filesystem;

/** \return every file under \p folder of the source tree whose name ends in \p suffix */
std::vector<fs::path>
FilesUnder(const std::string& folder, const std::string& suffix)
{
    std::vector<fs::path> files;
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(MLFABRIC_SOURCE_DIR) / folder))
    {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            files.push_back(entry.path());
        }
    }
    return files;
}

/** \return the quoted includes of \p file */
std::vector<std::string>
QuotedIncludes(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string body = text.str();
    static const std::regex include("#include \"([^\"]+)\"");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), include);
         it != std::sregex_iterator();
         ++it)
    {
        names.push_back((*it)[1]);
    }
    return names;
}

TEST(Layering, ModelNeverIncludesHelper)
{
    std::set<std::string> helperHeaders;
    for (const auto& header : FilesUnder("helper", ".h"))
    {
        helperHeaders.insert("ns3/" + header.filename().string());
    }
    ASSERT_GT(helperHeaders.size(), 10u);
    size_t checked = 0;
    for (const std::string suffix : {".h", ".cc"})
    {
        for (const auto& file : FilesUnder("model", suffix))
        {
            ++checked;
            for (const auto& name : QuotedIncludes(file))
            {
                EXPECT_EQ(helperHeaders.count(name), 0u)
                    << file.string() << " includes the helper header " << name;
            }
        }
    }
    EXPECT_GT(checked, 100u);
}

TEST(Layering, HeadersAreIncludedByTheirNs3Name)
{
    // A source includes its own header by its plain name and every other one as
    // "ns3/<name>.h", never by a path into the tree.
    for (const std::string folder : {"model", "helper", "examples", "tools"})
    {
        for (const std::string suffix : {".h", ".cc"})
        {
            for (const auto& file : FilesUnder(folder, suffix))
            {
                const std::string own = file.stem().string() + ".h";
                for (const auto& name : QuotedIncludes(file))
                {
                    EXPECT_TRUE(name.rfind("ns3/", 0) == 0 || name == own)
                        << file.string() << " includes \"" << name << "\"";
                }
            }
        }
    }
}

} // namespace
