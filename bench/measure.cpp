// Resident size from /proc/self/status (the peak resident memory of docs/performance.md).
#include "measure.hpp"

#include <cstdio>
#include <cstring>

namespace gauntlet::bench {

Resident read_resident() {
    Resident r;
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return r;
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
        unsigned long long v = 0;
        if (std::sscanf(line, "VmRSS: %llu", &v) == 1) r.rss_kib = v;
        else if (std::sscanf(line, "VmHWM: %llu", &v) == 1) r.hwm_kib = v;
        else if (std::sscanf(line, "RssFile: %llu", &v) == 1) r.file_kib = v;
        else if (std::sscanf(line, "RssAnon: %llu", &v) == 1) r.anon_kib = v;
    }
    std::fclose(f);
    return r;
}

}  // namespace gauntlet::bench
