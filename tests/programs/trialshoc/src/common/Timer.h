#ifndef TIMER_H
#define TIMER_H

#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

// Named wall-clock timers: Start() gives a handle, Stop() records it.
class Timer {
  public:
    static Timer *Instance();
    static int Start();
    static double Stop(int handle, const std::string &description);
    static void Print(std::ostream &out);

  private:
    using Clock = std::chrono::steady_clock;
    std::vector<Clock::time_point> starts_;
    std::vector<std::pair<std::string, double>> records_;
};

#endif
