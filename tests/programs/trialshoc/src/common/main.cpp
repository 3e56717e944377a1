// The driver of every benchmark: parses the common options, selects the
// device, runs the benchmark and prints its results.
#include <cstring>
#include <iostream>
#include <string>

#include <cuda_runtime.h>

#include "DeviceInfo.h"
#include "OptionParser.h"
#include "ResultDatabase.h"
#include "Timer.h"
#include "cudacommon.h"

// Defined in each benchmark.
void addBenchmarkSpecOptions(OptionParser &op);
void RunBenchmark(ResultDatabase &resultDB, OptionParser &op);

static std::string baseName(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char *argv[]) {
    OptionParser op;
    op.addOption("passes", OPT_INT, "3", "specify number of passes", 'n');
    op.addOption("size", OPT_INT, "1", "specify problem size", 's');
    op.addOption("device", OPT_VECINT, "0", "specify device(s) to run on", 'd');
    op.addOption("verbose", OPT_BOOL, "", "enable verbose output", 'v');
    op.addOption("quiet", OPT_BOOL, "", "write minimum necessary to standard output", 'q');
    op.addOption("properties", OPT_BOOL, "", "show properties for available platforms and devices", 'p');
    op.addOption("infoDevices", OPT_BOOL, "", "show info for available platforms and devices", 'i');
    op.addOption("outputFile", OPT_STRING, "", "specify a CSV file for the results", 'o');
    addBenchmarkSpecOptions(op);

    if (!op.parse(argc, argv))
        return op.getOptionBool("help") ? 0 : 1;

    std::string name = baseName(argv[0]);
    bool quiet = op.getOptionBool("quiet");
    int count = deviceCount();
    if (count == 0) {
        std::cerr << "no CUDA device\n";
        return 1;
    }
    if (op.getOptionBool("infoDevices") || op.getOptionBool("properties")) {
        for (int d = 0; d < count; ++d)
            printDeviceInfo(std::cout, d);
    }
    int device = (int)op.getOptionVecInt("device").at(0);
    if (device < 0 || device >= count) {
        std::cerr << "device " << device << " out of range (" << count
                  << " devices)\n";
        return 1;
    }
    CUDA_SAFE_CALL(cudaSetDevice(device));
    CUDA_SAFE_CALL(cudaFree(0));
    if (!quiet) {
        cudaDeviceProp prop;
        CUDA_SAFE_CALL(cudaGetDeviceProperties(&prop, device));
        std::cout << "Chose device: name='" << prop.name << "' index=" << device
                  << "\n";
    }

    ResultDatabase resultDB;
    int t = Timer::Start();
    RunBenchmark(resultDB, op);
    Timer::Stop(t, name);
    CUDA_SAFE_CALL(cudaDeviceSynchronize());

    if (!quiet) {
        resultDB.DumpSummary(std::cout);
        Timer::Print(std::cout);
    }
    std::string csv = op.getOptionString("outputFile");
    if (!csv.empty())
        resultDB.DumpCsv(csv);
    for (const std::string &f : resultDB.Failures())
        std::cout << "FAILED: " << f << "\n";
    std::cout << name << ": " << (resultDB.Failed() ? "FAIL" : "PASS") << "\n";
    return resultDB.Failed() ? 1 : 0;
}
