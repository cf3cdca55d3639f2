/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_YAML_INPUT_H
#define MLFABRIC_YAML_INPUT_H

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Typed reads from a YAML file whose errors name the file, the line and the key.
 *
 * Every failure throws InputError as "<file>:<line>: <key>: <what is wrong>".
 */
class YamlInput
{
  public:
    /**
     * Parse a file. Throws InputError when it cannot be read or is not YAML.
     * \param path the file
     */
    explicit YamlInput(const std::string& path);

    /** \return the document's root */
    const YAML::Node& GetRoot() const;
    /** \return the file path */
    const std::string& GetPath() const;

    /** \param node a node \return "<file>:<line>" of it */
    std::string Where(const YAML::Node& node) const;
    /**
     * Throw InputError "<file>:<line of node>: <key>: <what>".
     * \param node the node at fault, for its line
     * \param key the key it belongs to
     * \param what what is wrong with it
     */
    [[noreturn]] void Fail(const YAML::Node& node,
                           const std::string& key,
                           const std::string& what) const;

    /** Fail unless \p node is a map. \param node the node \param key its name */
    void RequireMap(const YAML::Node& node, const std::string& key) const;
    /** Fail unless \p node is a sequence. \param node the node \param key its name */
    void RequireSequence(const YAML::Node& node, const std::string& key) const;
    /**
     * Fail on any key of \p map not in \p allowed.
     * \param map a map node
     * \param context name of the map, for messages
     * \param allowed the accepted keys
     */
    void CheckKeys(const YAML::Node& map,
                   const std::string& context,
                   std::initializer_list<const char*> allowed) const;
    /**
     * \param map a map node
     * \param key a key of it
     * \return the value; fails when the key is missing
     */
    YAML::Node Require(const YAML::Node& map, const std::string& key) const;

    /** \param node a scalar \param key its name \return the text */
    std::string String(const YAML::Node& node, const std::string& key) const;
    /** \param node a scalar \param key its name \return a finite number */
    double Number(const YAML::Node& node, const std::string& key) const;
    /**
     * \param node a scalar
     * \param key its name
     * \param min smallest accepted value
     * \param max largest accepted value
     * \return a whole number in [min, max]
     */
    uint64_t Uint(const YAML::Node& node, const std::string& key, uint64_t min, uint64_t max) const;
    /** \param node a scalar \param key its name \return true/false/yes/no/on/off */
    bool Bool(const YAML::Node& node, const std::string& key) const;
    /** \param node a scalar \param key its name \return bit/s from "100Gbps", "12.5GBps"
     * (doc/units.md) */
    uint64_t RateBps(const YAML::Node& node, const std::string& key) const;
    /** \param node a scalar \param key its name \return picoseconds from "1us", "500ns" */
    int64_t DelayPs(const YAML::Node& node, const std::string& key) const;
    /** \param node a scalar \param key its name \return bytes from "32MiB", "400KB" */
    uint64_t Bytes(const YAML::Node& node, const std::string& key) const;

  private:
    std::string m_path; //!< the file
    YAML::Node m_root;  //!< the document
};

} // namespace ns3

#endif /* MLFABRIC_YAML_INPUT_H */
