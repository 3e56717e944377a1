#include "ProgressBar.h"

void ProgressBar::addItersDone(int n) { done_ += n; }

void ProgressBar::show(FILE *out) const {
    if (!enabled_ || total_ <= 0)
        return;
    const int width = 40;
    int filled = done_ * width / total_;
    fputc('\r', out);
    fputc('[', out);
    for (int i = 0; i < width; ++i)
        fputc(i < filled ? '=' : ' ', out);
    fprintf(out, "] %3d%%", done_ * 100 / total_);
    fflush(out);
}

void ProgressBar::finish(FILE *out) {
    done_ = total_;
    show(out);
    if (enabled_)
        fputc('\n', out);
}
