#include "OptionParser.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

OptionParser::OptionParser() {
    addOption("help", OPT_BOOL, "", "print this usage", 'h');
}

void OptionParser::addOption(const std::string &longName, OptionType type,
                             const std::string &defaultValue,
                             const std::string &helpText, char shortLetter) {
    OptionInfo info{longName, type, defaultValue, helpText, shortLetter};
    if (type == OPT_BOOL && defaultValue.empty())
        info.value = "0";
    options_[longName] = info;
    if (shortLetter != '\0')
        shortNames_[shortLetter] = longName;
}

bool OptionParser::parse(int argc, const char *const argv[]) {
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        std::string name, value;
        bool hasValue = false;
        if (arg.size() > 2 && arg[0] == '-' && arg[1] == '-') {
            name = arg.substr(2);
            std::string::size_type eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasValue = true;
            }
        } else if (arg.size() == 2 && arg[0] == '-') {
            auto it = shortNames_.find(arg[1]);
            if (it == shortNames_.end()) {
                std::cerr << "unknown option " << arg << "\n";
                return false;
            }
            name = it->second;
        } else {
            std::cerr << "unexpected argument " << arg << "\n";
            return false;
        }
        auto it = options_.find(name);
        if (it == options_.end()) {
            std::cerr << "unknown option --" << name << "\n";
            return false;
        }
        if (it->second.type == OPT_BOOL) {
            it->second.value = hasValue ? value : "1";
            continue;
        }
        if (!hasValue) {
            if (i + 1 >= argc) {
                std::cerr << "option --" << name << " needs a value\n";
                return false;
            }
            value = argv[++i];
        }
        it->second.value = value;
    }
    if (getOptionBool("help")) {
        printHelp(argv[0]);
        return false;
    }
    return true;
}

void OptionParser::printHelp(const std::string &progName) const {
    std::cout << "Usage: " << progName << " [options]\n";
    for (const auto &kv : options_) {
        const OptionInfo &o = kv.second;
        std::cout << "  ";
        if (o.shortLetter)
            std::cout << "-" << o.shortLetter << ", ";
        else
            std::cout << "    ";
        std::cout << "--" << std::left << std::setw(18) << o.longName << o.help;
        if (o.type != OPT_BOOL)
            std::cout << " (default " << o.value << ")";
        std::cout << "\n";
    }
}

const OptionInfo &OptionParser::find(const std::string &name) const {
    auto it = options_.find(name);
    if (it == options_.end())
        throw std::runtime_error("no such option: " + name);
    return it->second;
}

long long OptionParser::getOptionInt(const std::string &name) const {
    return std::atoll(find(name).value.c_str());
}

float OptionParser::getOptionFloat(const std::string &name) const {
    return std::strtof(find(name).value.c_str(), nullptr);
}

bool OptionParser::getOptionBool(const std::string &name) const {
    const std::string &v = find(name).value;
    return v == "1" || v == "true" || v == "yes";
}

std::string OptionParser::getOptionString(const std::string &name) const {
    return find(name).value;
}

std::vector<long long> OptionParser::getOptionVecInt(const std::string &name) const {
    std::vector<long long> out;
    std::stringstream ss(find(name).value);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(std::atoll(item.c_str()));
    return out;
}

void OptionParser::setOption(const std::string &name, const std::string &value) {
    options_.at(name).value = value;
}
