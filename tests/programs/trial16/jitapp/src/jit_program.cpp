#include "jit_program.h"
#include "jit_check.h"
#include <fstream>
#include <sstream>

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    std::exit(1);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

JitProgram::JitProgram(const std::string &name, const std::string &source)
    : name_(name), source_(source) {}

void JitProgram::addHeader(const std::string &name, const std::string &text) {
  headerNames_.push_back(name);
  headerTexts_.push_back(text);
}

void JitProgram::addNameExpression(const std::string &expr) {
  exprs_.push_back(expr);
}

bool JitProgram::compile(const std::vector<std::string> &options,
                         bool wantCubin) {
  std::vector<const char *> hn, ht, opts;
  for (auto &s : headerNames_) hn.push_back(s.c_str());
  for (auto &s : headerTexts_) ht.push_back(s.c_str());
  for (auto &s : options) opts.push_back(s.c_str());
  nvrtcProgram prog;
  NVRTC_SAFE_CALL(nvrtcCreateProgram(&prog, source_.c_str(), name_.c_str(),
                                     (int)hn.size(), ht.data(), hn.data()));
  for (auto &e : exprs_) NVRTC_SAFE_CALL(nvrtcAddNameExpression(prog, e.c_str()));
  nvrtcResult res = nvrtcCompileProgram(prog, (int)opts.size(), opts.data());
  size_t logSize;
  NVRTC_SAFE_CALL(nvrtcGetProgramLogSize(prog, &logSize));
  log_.resize(logSize);
  NVRTC_SAFE_CALL(nvrtcGetProgramLog(prog, &log_[0]));
  if (!log_.empty() && log_.back() == '\0') log_.pop_back();
  if (res != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return false;
  }
  for (auto &e : exprs_) {
    const char *low;
    NVRTC_SAFE_CALL(nvrtcGetLoweredName(prog, e.c_str(), &low));
    lowered_[e] = low;
  }
  size_t size;
  if (wantCubin) {
    NVRTC_SAFE_CALL(nvrtcGetCUBINSize(prog, &size));
    image_.resize(size);
    NVRTC_SAFE_CALL(nvrtcGetCUBIN(prog, image_.data()));
  } else {
    NVRTC_SAFE_CALL(nvrtcGetPTXSize(prog, &size));
    image_.resize(size);
    NVRTC_SAFE_CALL(nvrtcGetPTX(prog, image_.data()));
  }
  NVRTC_SAFE_CALL(nvrtcDestroyProgram(&prog));
  return true;
}

std::string JitProgram::lowered(const std::string &expr) const {
  auto it = lowered_.find(expr);
  return it == lowered_.end() ? std::string() : it->second;
}
