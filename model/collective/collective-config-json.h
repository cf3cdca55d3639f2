/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_CONFIG_JSON_H
#define MLFABRIC_COLLECTIVE_CONFIG_JSON_H

#include <nlohmann/json.hpp>

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * A JSON configuration file held with its text, so that errors about a key can name
 * the line it is on (nlohmann::json keeps no positions).
 */
class ConfigJson
{
  public:
    /**
     * Read and parse a file. Throws InputError if it cannot be read or is not JSON.
     * \param path the file
     * \return the parsed document
     */
    static ConfigJson Load(const std::string& path);

    /**
     * Read a whole file. Throws InputError if it cannot be read.
     * \param path the file
     * \return its text
     */
    static std::string ReadFile(const std::string& path);

    /**
     * Parse text. Throws InputError naming \p source and the line of a syntax error.
     * \param text the JSON text
     * \param source file name used in messages
     * \return the parsed document
     */
    static ConfigJson Parse(const std::string& text, const std::string& source);

    /** \return the document */
    const nlohmann::json&
    Root() const
    {
        return m_root;
    }

    /** \return the file name */
    const std::string&
    Source() const
    {
        return m_source;
    }

    /**
     * Describe a value for an error message, in one short line: a scalar as JSON text
     * (cut after 60 characters), a list or an object by its kind and size. Nested values
     * are not walked, so that a deeply nested input cannot exhaust the stack.
     * \param value a value of the document
     * \return e.g. "-1", "\"ring\"" or "a list of 3 values"
     */
    static std::string Describe(const nlohmann::json& value);

    /**
     * \param key an object key
     * \return "file:line: key \"key\"" (without the line if the key is not found)
     */
    std::string Where(const std::string& key) const;

  private:
    std::string m_text;    //!< the file's text
    std::string m_source;  //!< the file name
    nlohmann::json m_root; //!< the parsed document
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_CONFIG_JSON_H */
