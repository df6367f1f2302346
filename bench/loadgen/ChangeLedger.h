#pragma once

// C++
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

namespace LoadGen {

// What each user's latest status change was, shared by every worker thread: the changer stamps
// the time it sends a set_status, the watchers look the stamp up when the push arrives, so
// latency is measured on one clock (this process's steady clock) with nothing added to the
// protocol. A push matches a change by user and status: every change toggles the user between
// online and away, and a user changes again only when every watcher has had the previous push
// (or never, when one is lost), so a push is never credited to the wrong change.
class ChangeLedger {
public:
    enum class Status : std::uint64_t { Online = 1, Away = 2 };

    explicit ChangeLedger(int users);

    // Set-up: one connection subscribed to `user`.
    void addWatcher(int user) { m_records[size_t(user)].watchers.fetch_add(1); }
    [[nodiscard]] std::uint64_t subscriptions() const;

    // Called by the user's own connection only. False while the previous change of `user` is
    // still on its way to a watcher.
    [[nodiscard]] bool canChange(int user) const;
    // Stamps a change of `user` to `status` sent at `sentMicros`.
    void recordChange(int user, Status status, std::int64_t sentMicros);

    // A presence push of `user` with `status` arrived at a watcher at `nowMicros`: the latency
    // in microseconds when it matches the user's latest change, nullopt otherwise.
    std::optional<std::int64_t> recordPush(int user, Status status, std::int64_t nowMicros);

    [[nodiscard]] std::uint64_t changes() const { return m_changes.load(); }
    [[nodiscard]] std::uint64_t expected() const { return m_expected.load(); }
    [[nodiscard]] std::uint64_t received() const { return m_received.load(); }
    [[nodiscard]] std::uint64_t unmatched() const { return m_unmatched.load(); }
    // Pushes that never arrived, and those that arrived more than once, over every change
    // made; call once the worker threads have stopped.
    [[nodiscard]] std::uint64_t lost() const;
    [[nodiscard]] std::uint64_t duplicates() const;

private:
    // One cache line per user: the changer's and the watchers' threads touch different users.
    struct alignas(64) Record {
        // (sent time in µs + 1) << 2 | status; 0 before the first change.
        std::atomic<std::uint64_t> stamp { 0 };
        std::atomic<std::uint32_t> received { 0 };
        std::atomic<std::uint32_t> watchers { 0 };
        std::uint32_t expected = 0; // the changer's thread only
        std::uint64_t duplicates = 0; // of earlier changes; the changer's thread only
    };

    std::unique_ptr<Record[]> m_records;
    int m_users;
    std::atomic<std::uint64_t> m_changes { 0 };
    std::atomic<std::uint64_t> m_expected { 0 };
    std::atomic<std::uint64_t> m_received { 0 };
    std::atomic<std::uint64_t> m_unmatched { 0 };
};

} // namespace LoadGen
