#ifndef PROGRESS_BAR_H
#define PROGRESS_BAR_H

#include <cstdio>

// A text progress bar drawn on stderr with carriage returns.
class ProgressBar {
  public:
    explicit ProgressBar(int total, bool enabled = true)
        : total_(total), done_(0), enabled_(enabled) {}
    void addItersDone(int n = 1);
    void show(FILE *out = stderr) const;
    void finish(FILE *out = stderr);

  private:
    int total_;
    int done_;
    bool enabled_;
};

#endif
