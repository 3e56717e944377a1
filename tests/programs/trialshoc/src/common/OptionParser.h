#ifndef OPTION_PARSER_H
#define OPTION_PARSER_H

#include <map>
#include <string>
#include <vector>

enum OptionType { OPT_INT, OPT_FLOAT, OPT_BOOL, OPT_STRING, OPT_VECINT };

struct OptionInfo {
    std::string longName;
    OptionType type;
    std::string value;
    std::string help;
    char shortLetter;
};

// Parses --long-name value, --long-name=value, -x value and boolean flags.
class OptionParser {
  public:
    OptionParser();
    void addOption(const std::string &longName, OptionType type,
                   const std::string &defaultValue, const std::string &helpText,
                   char shortLetter = '\0');
    bool parse(int argc, const char *const argv[]);
    void printHelp(const std::string &progName) const;

    long long getOptionInt(const std::string &name) const;
    float getOptionFloat(const std::string &name) const;
    bool getOptionBool(const std::string &name) const;
    std::string getOptionString(const std::string &name) const;
    std::vector<long long> getOptionVecInt(const std::string &name) const;
    void setOption(const std::string &name, const std::string &value);

  private:
    const OptionInfo &find(const std::string &name) const;
    std::map<std::string, OptionInfo> options_;
    std::map<char, std::string> shortNames_;
};

#endif
