#include "ResultDatabase.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>

static const double kFailed = FLT_MAX;

double ResultDatabase::Result::GetMin() const {
    return *std::min_element(value.begin(), value.end());
}

double ResultDatabase::Result::GetMax() const {
    return *std::max_element(value.begin(), value.end());
}

double ResultDatabase::Result::GetMedian() const {
    std::vector<double> v(value);
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double ResultDatabase::Result::GetMean() const {
    return std::accumulate(value.begin(), value.end(), 0.0) / value.size();
}

double ResultDatabase::Result::GetStdDev() const {
    double mean = GetMean(), sum = 0.0;
    for (double v : value)
        sum += (v - mean) * (v - mean);
    return value.size() > 1 ? std::sqrt(sum / (value.size() - 1)) : 0.0;
}

bool ResultDatabase::Result::HadAnyFLTMAXValues() const {
    return std::any_of(value.begin(), value.end(),
                       [](double v) { return v >= kFailed; });
}

bool ResultDatabase::Result::operator<(const Result &rhs) const {
    if (test != rhs.test)
        return test < rhs.test;
    return atts < rhs.atts;
}

void ResultDatabase::AddResult(const std::string &test, const std::string &atts,
                               const std::string &unit, double value) {
    for (Result &r : results_) {
        if (r.test == test && r.atts == atts) {
            r.value.push_back(value);
            return;
        }
    }
    results_.push_back(Result{test, atts, unit, {value}});
}

void ResultDatabase::AddResults(const std::string &test, const std::string &atts,
                                const std::string &unit,
                                const std::vector<double> &values) {
    for (double v : values)
        AddResult(test, atts, unit, v);
}

void ResultDatabase::AddFailure(const std::string &test, const std::string &why) {
    failures_.push_back(test + ": " + why);
    AddResult(test, "failed", "N/A", kFailed);
}

std::vector<ResultDatabase::Result>
ResultDatabase::GetResultsForTest(const std::string &test) const {
    std::vector<Result> out;
    for (const Result &r : results_)
        if (r.test == test)
            out.push_back(r);
    return out;
}

void ResultDatabase::DumpDetailed(std::ostream &out) const {
    std::vector<Result> sorted(results_);
    std::sort(sorted.begin(), sorted.end());
    for (const Result &r : sorted) {
        out << r.test << "\t" << r.atts << "\t" << r.unit;
        for (double v : r.value)
            out << "\t" << v;
        out << "\n";
    }
}

void ResultDatabase::DumpSummary(std::ostream &out) const {
    std::vector<Result> sorted(results_);
    std::sort(sorted.begin(), sorted.end());
    out << std::left << std::setw(22) << "test" << std::setw(14) << "atts"
        << std::setw(10) << "units" << std::right << std::setw(12) << "median"
        << std::setw(12) << "mean" << std::setw(12) << "stddev"
        << std::setw(12) << "min" << std::setw(12) << "max" << "\n";
    for (const Result &r : sorted) {
        out << std::left << std::setw(22) << r.test << std::setw(14) << r.atts
            << std::setw(10) << r.unit << std::right;
        if (r.HadAnyFLTMAXValues()) {
            out << std::setw(12) << "N/A" << "\n";
            continue;
        }
        out << std::setprecision(4) << std::setw(12) << r.GetMedian()
            << std::setw(12) << r.GetMean() << std::setw(12) << r.GetStdDev()
            << std::setw(12) << r.GetMin() << std::setw(12) << r.GetMax() << "\n";
    }
}

void ResultDatabase::DumpCsv(const std::string &fileName) const {
    std::ofstream f(fileName);
    f << "test,atts,units,median,mean,stddev,min,max\n";
    for (const Result &r : results_) {
        f << r.test << "," << r.atts << "," << r.unit << "," << r.GetMedian()
          << "," << r.GetMean() << "," << r.GetStdDev() << "," << r.GetMin()
          << "," << r.GetMax() << "\n";
    }
}
