# cpu_times.sh: sourced by tests/timed.sh and tests/test_tools.sh.
# children_cpu FILE: prints the processor seconds (user and system, whole)
# that the calling shell's finished children used so far, as tests/timed.sh
# logs them; FILE is a scratch file (`times` must run in this shell: in a
# command substitution it would count the subshell's children). A script
# logs the CPU of each of its parts as the difference of two calls.
children_cpu() {
  times >"$1"
  sed -n 2p "$1" | awk '{
    s = 0
    for (i = 1; i <= NF; ++i) {
      split($i, t, "m")
      sub("s", "", t[2])
      s += t[1] * 60 + t[2]
    }
    printf "%.0f\n", s
  }'
}
