// One call at a time on an object whose bindings release the GIL (the batched vector env).
//
// A binding that releases the GIL lets a second Python thread into the same object while the first is
// still inside it: two threads stepping one VecEnv crashed the interpreter. The guard turns that misuse
// into a RuntimeError naming the object. The flag is read and written only while the GIL is held (the
// guard is built before the GIL is released and destroyed after it is taken back), so it needs no atomic.
#pragma once

#include <stdexcept>
#include <string>

namespace fcm {

struct InUse {
  bool busy = false;
};

class CallGuard {
 public:
  CallGuard(InUse& use, const char* what) : use_(use) {
    if (use_.busy) {
      throw std::runtime_error(std::string(what) + " is in a call on another thread: one thread at a time may use "
                               "it (give each thread its own)");
    }
    use_.busy = true;
  }
  ~CallGuard() { use_.busy = false; }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

 private:
  InUse& use_;
};

// a check for a call that keeps the GIL: refused while a GIL-free call on the same object runs
inline void check_free(const InUse& use, const char* what) {
  if (use.busy) {
    throw std::runtime_error(std::string(what) + " is in a call on another thread: one thread at a time may use "
                             "it (give each thread its own)");
  }
}

}  // namespace fcm
