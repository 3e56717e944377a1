#ifndef RESULT_DATABASE_H
#define RESULT_DATABASE_H

#include <cfloat>
#include <iosfwd>
#include <string>
#include <vector>

// Collects named results (test, attributes, unit) over several passes and
// prints statistics over the passes.
class ResultDatabase {
  public:
    struct Result {
        std::string test;
        std::string atts;
        std::string unit;
        std::vector<double> value;
        double GetMin() const;
        double GetMax() const;
        double GetMedian() const;
        double GetMean() const;
        double GetStdDev() const;
        bool HadAnyFLTMAXValues() const;
        bool operator<(const Result &rhs) const;
    };

    void AddResult(const std::string &test, const std::string &atts,
                   const std::string &unit, double value);
    void AddResults(const std::string &test, const std::string &atts,
                    const std::string &unit, const std::vector<double> &values);
    void AddFailure(const std::string &test, const std::string &why);
    bool Failed() const { return !failures_.empty(); }
    const std::vector<std::string> &Failures() const { return failures_; }

    void DumpDetailed(std::ostream &out) const;
    void DumpSummary(std::ostream &out) const;
    void DumpCsv(const std::string &fileName) const;
    std::vector<Result> GetResultsForTest(const std::string &test) const;

  private:
    std::vector<Result> results_;
    std::vector<std::string> failures_;
};

#endif
