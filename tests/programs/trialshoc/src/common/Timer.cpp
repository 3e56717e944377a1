#include "Timer.h"

#include <iostream>

Timer *Timer::Instance() {
    static Timer timer;
    return &timer;
}

int Timer::Start() {
    Timer *t = Instance();
    t->starts_.push_back(Clock::now());
    return static_cast<int>(t->starts_.size()) - 1;
}

double Timer::Stop(int handle, const std::string &description) {
    Timer *t = Instance();
    std::chrono::duration<double> d = Clock::now() - t->starts_.at(handle);
    t->records_.emplace_back(description, d.count());
    return d.count();
}

void Timer::Print(std::ostream &out) {
    for (const auto &r : Instance()->records_)
        out << "  " << r.first << ": " << r.second << " s\n";
}
