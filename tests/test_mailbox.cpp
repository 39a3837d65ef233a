// Tests of the worker's Mailbox (worker/mailbox.hpp): its reply timeout, which ends a worker
// whose coordinator stopped answering (--rank-timeout), and never one that gets its replies.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <variant>

#include "mailbox.hpp"

namespace permbb::cluster {
namespace {

using namespace std::chrono_literals;

ToCoordinator a_report() {
  return WorkReport{};
}

// The communicator's side: takes the posted message and delivers `reply` after `delay`.
std::thread answer_after(Mailbox& mailbox, std::chrono::milliseconds delay, ToWorker reply) {
  return std::thread([&mailbox, delay, reply] {
    while (!mailbox.wait_outgoing(1ms)) {
    }
    std::this_thread::sleep_for(delay);
    mailbox.deliver(reply);
  });
}

TEST(Mailbox, AReplyWithinTheTimeoutIsDelivered) {
  Mailbox mailbox(std::chrono::duration<double>(5));
  mailbox.post(a_report());
  std::thread communicator = answer_after(mailbox, 20ms, StopOrder{});
  EXPECT_TRUE(std::holds_alternative<StopOrder>(mailbox.wait_reply()));
  communicator.join();
  EXPECT_TRUE(mailbox.free());
}

TEST(Mailbox, WaitingPastTheTimeoutThrows) {
  Mailbox mailbox(std::chrono::duration<double>(0.05));
  mailbox.post(a_report());
  const auto start = std::chrono::steady_clock::now();
  try {
    static_cast<void>(mailbox.wait_reply());
    FAIL() << "no ReplyOverdue";
  } catch (const ReplyOverdue& e) {
    EXPECT_GE(e.waited_seconds(), 0.05);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms);
    EXPECT_EQ(std::string(e.what()).rfind("no reply from the coordinator (rank 0) for 0.", 0), 0u)
        << e.what();
  }
}

// An explorer that goes on exploring (a BEST in flight) sees the overdue reply when it next
// looks; before the deadline it sees nothing.
TEST(Mailbox, TakingAReplyPastTheTimeoutThrows) {
  Mailbox mailbox(std::chrono::duration<double>(0.05));
  mailbox.post(BestMessage{});
  EXPECT_FALSE(mailbox.take_reply().has_value());
  std::this_thread::sleep_for(60ms);
  EXPECT_THROW(static_cast<void>(mailbox.take_reply()), ReplyOverdue);
}

// The clock runs only while a posted message waits for its reply.
TEST(Mailbox, NoMessageWaitingNeverTimesOut) {
  Mailbox mailbox(std::chrono::duration<double>(0.03));
  EXPECT_FALSE(mailbox.take_reply().has_value());
  mailbox.post(a_report());
  std::thread communicator = answer_after(mailbox, 0ms, StopOrder{});
  EXPECT_TRUE(std::holds_alternative<StopOrder>(mailbox.wait_reply()));
  communicator.join();
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(mailbox.take_reply().has_value());
}

TEST(Mailbox, WithoutATimeoutAReplyMayTakeAnyTime) {
  Mailbox mailbox;
  mailbox.post(a_report());
  std::this_thread::sleep_for(30ms);
  EXPECT_FALSE(mailbox.take_reply().has_value());
  std::thread communicator = answer_after(mailbox, 30ms, StopOrder{});
  EXPECT_TRUE(std::holds_alternative<StopOrder>(mailbox.wait_reply()));
  communicator.join();
}

// A GiveRequest is void while a checkpoint is posted or in flight (the coordinator answers it
// at that checkpoint, protocol.hpp), kept while another message is, and taken once; posting a
// checkpoint answers a pending one.
TEST(Mailbox, AGiveRequestIsVoidWhileACheckpointIsOnItsWay) {
  Mailbox mailbox;
  const auto before = Mailbox::Clock::now();
  mailbox.request_give(8);
  const std::optional<PendingGive> first = mailbox.take_give_request();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->max_intervals, 8);
  EXPECT_GE(first->arrived, before);  // the victim's answer is timed from its arrival
  EXPECT_LE(first->arrived, Mailbox::Clock::now());
  EXPECT_EQ(mailbox.take_give_request(), std::nullopt);

  mailbox.post(a_report());
  mailbox.request_give(4);  // posted, not yet sent
  EXPECT_EQ(mailbox.take_give_request(), std::nullopt);
  ASSERT_TRUE(mailbox.wait_outgoing(1ms));
  mailbox.request_give(4);  // in flight
  EXPECT_EQ(mailbox.take_give_request(), std::nullopt);
  mailbox.deliver(BestMessage{});
  EXPECT_TRUE(std::holds_alternative<BestMessage>(mailbox.wait_reply()));

  mailbox.post(BestMessage{});
  ASSERT_TRUE(mailbox.wait_outgoing(1ms));
  mailbox.request_give(2);  // a BEST in flight: the request stands
  mailbox.deliver(BestMessage{});
  EXPECT_TRUE(std::holds_alternative<BestMessage>(mailbox.wait_reply()));
  const std::optional<PendingGive> standing = mailbox.take_give_request();
  ASSERT_TRUE(standing);
  EXPECT_EQ(standing->max_intervals, 2);

  mailbox.request_give(3);
  mailbox.post(a_report());  // the checkpoint answers it
  EXPECT_EQ(mailbox.take_give_request(), std::nullopt);
}

}  // namespace
}  // namespace permbb::cluster
