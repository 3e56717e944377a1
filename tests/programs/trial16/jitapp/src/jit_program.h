#pragma once
#include <string>
#include <vector>
#include <map>
#include <cuda.h>

// Compiles a source file with NVRTC and keeps the lowered names.
class JitProgram {
 public:
  JitProgram(const std::string &name, const std::string &source);
  void addHeader(const std::string &name, const std::string &text);
  void addNameExpression(const std::string &expr);
  bool compile(const std::vector<std::string> &options, bool wantCubin);
  const std::string &log() const { return log_; }
  const std::vector<char> &image() const { return image_; }
  std::string lowered(const std::string &expr) const;
 private:
  std::string name_, source_, log_;
  std::vector<std::string> headerNames_, headerTexts_, exprs_;
  std::map<std::string, std::string> lowered_;
  std::vector<char> image_;
};

std::string read_file(const std::string &path);
