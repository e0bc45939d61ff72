// SPDX-License-Identifier: GPL-2.0
// mrcctl ev-profile: grammar, explicit EV lists, EV state changes, output.
#include <gtest/gtest.h>

#include "fake_control.hpp"

namespace {

using mrcctl::kExitOk;
using mrcctl::kExitUsage;

mrc::EvProfile Explicit() {
  return mrc::EvProfile{
      .id = 3,
      .state = mrc::ProfileState::kOnline,
      .mode = mrc::EvMode::kExplicit,
      .count = 2,
      .min_active = 1,
      .event_mask = (1U << 2) | (1U << 3),
      .seed = 0,
      .evs =
          std::vector<mrc::Ev>{
              {.index = 0, .value = 100, .plane = 0, .state = mrc::EvState::kGood},
              {.index = 1, .value = 200, .plane = 1, .state = mrc::EvState::kDenied},
          },
      .users = 0,
  };
}

mrc::EvProfile Auto() {
  return mrc::EvProfile{.id = 1,
                        .state = mrc::ProfileState::kInit,
                        .mode = mrc::EvMode::kAuto,
                        .count = 16,
                        .min_active = 0,
                        .event_mask = 0,
                        .seed = 7,
                        .users = 2};
}

class EvProfile : public Mrcctl {
 protected:
  void SetUp() override {
    kernel()->ev_profiles = {Auto(), Explicit()};
    kernel()->ev_profile_reply = Auto();
  }

  std::string UsageError(const std::vector<std::string_view>& args) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitUsage);
    EXPECT_NE(r.err.find("\nUsage: mrcctl ev-profile add"), std::string::npos) << r.err;
    EXPECT_TRUE(kernel()->calls.empty());
    return FirstLine(r.err);
  }

  const mrc::EvProfile& Sent() { return *kernel()->ev_profile_sent; }
};

TEST_F(EvProfile, AddSendsTheConfiguration) {
  const Result r =
      Run({"ev-profile", "add", "id", "9", "mode", "generated", "count", "128", "min-active", "64",
           "events", "good,assumed-bad", "seed", "4294967295", "state", "online"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"NewEvProfile"});
  EXPECT_EQ(Sent().id, 9U);
  EXPECT_EQ(Sent().mode, mrc::EvMode::kGenerated);
  EXPECT_EQ(Sent().count, 128U);
  EXPECT_EQ(Sent().min_active, 64U);
  EXPECT_EQ(Sent().event_mask, (1U << 0) | (1U << 2));
  EXPECT_EQ(Sent().seed, 4294967295U);
  EXPECT_EQ(Sent().state, mrc::ProfileState::kOnline);
  EXPECT_FALSE(Sent().evs || Sent().ev || Sent().users);
  EXPECT_EQ(r.out,
            "ev-profile 1 state init mode auto count 16 min-active 0 events none seed 7 "
            "users 2\n");
}

TEST_F(EvProfile, AddWithNothingSendsNothing) {
  ASSERT_EQ(Run({"ev-profile", "add"}).status, kExitOk);
  EXPECT_FALSE(Sent().id || Sent().mode || Sent().count || Sent().state || Sent().event_mask);
}

TEST_F(EvProfile, EventsNoneAndPrefixes) {
  const Result first = Run({"ev", "new", "eve", "none", "mo", "e"});
  ASSERT_EQ(first.status, kExitOk) << first.err;
  EXPECT_EQ(Sent().event_mask, 0U);
  EXPECT_EQ(Sent().mode, mrc::EvMode::kExplicit);
  ASSERT_EQ(Run({"ev-profile", "add", "events", "skip,den,as"}).status, kExitOk);
  EXPECT_EQ(Sent().event_mask, (1U << 1) | (1U << 3) | (1U << 2));
}

TEST_F(EvProfile, SetExplicitEvsWithOptionalPlanes) {
  ASSERT_EQ(Run({"ev-profile", "set", "3", "evs", "100,200@1,65535@15", "count", "3"}).status,
            kExitOk);
  EXPECT_EQ(Sent().id, 3U);
  EXPECT_EQ(Sent().count, 3U);
  ASSERT_TRUE(Sent().evs);
  EXPECT_EQ(*Sent().evs, (std::vector<mrc::Ev>{
                             {.index = 0, .value = 100},
                             {.index = 1, .value = 200, .plane = 1},
                             {.index = 2, .value = 65535, .plane = 15},
                         }));
  EXPECT_FALSE(Sent().ev);
}

TEST_F(EvProfile, SetOneEvState) {
  ASSERT_EQ(
      Run({"ev-profile", "set", "id", "3", "ev", "100", "plane", "2", "ev-state", "assumed-bad"})
          .status,
      kExitOk);
  EXPECT_EQ(Sent().id, 3U);
  ASSERT_TRUE(Sent().ev);
  EXPECT_EQ(*Sent().ev, (mrc::Ev{.value = 100, .plane = 2, .state = mrc::EvState::kAssumedBad}));
  EXPECT_FALSE(Sent().evs || Sent().state || Sent().count);

  ASSERT_EQ(Run({"ev-profile", "set", "3", "ev", "7", "ev-s", "g"}).status, kExitOk);
  EXPECT_EQ(*Sent().ev, (mrc::Ev{.value = 7, .state = mrc::EvState::kGood}));
}

TEST_F(EvProfile, SetStateOnly) {
  ASSERT_EQ(Run({"ev-profile", "set", "3", "state", "offline"}).status, kExitOk);
  EXPECT_EQ(Sent().state, mrc::ProfileState::kOffline);
  EXPECT_FALSE(Sent().ev || Sent().evs);
}

TEST_F(EvProfile, Errors) {
  EXPECT_EQ(UsageError({"ev-profile", "set", "state", "online"}), "Error: profile ID is required.");
  EXPECT_EQ(UsageError({"ev-profile", "del"}), "Error: profile ID is required.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "id", "0"}), "Error: id 0 is out of range 1..16384.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "id", "16385"}),
            "Error: id 16385 is out of range 1..16384.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "count", "1025"}),
            "Error: count 1025 is out of range 1..1024.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "count", "0"}),
            "Error: count 0 is out of range 1..1024.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "count", "4", "min-active", "5"}),
            "Error: min-active 5 exceeds count 4.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "seed", "4294967296"}),
            "Error: seed 4294967296 is out of range 0..4294967295.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "mode", "random"}),
            "Error: mode \"random\" is not one of auto, explicit, generated.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "state", "up"}),
            "Error: state \"up\" is not one of init, offline, online.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "state", "o"}),
            "Error: state \"o\" is ambiguous: offline, online.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "events", "good,bad"}),
            "Error: events \"bad\" is not one of good, skip, assumed-bad, denied, none.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "events", "good,"}),
            "Error: events \"\" is not one of good, skip, assumed-bad, denied, none.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "events", "none,good"}),
            "Error: events \"none\" cannot be combined with states.");
  EXPECT_EQ(UsageError({"ev-profile", "add", "evs", "1,2"}), "Error: unknown argument \"evs\".");
  EXPECT_EQ(UsageError({"ev-profile", "add", "3"}), "Error: unknown argument \"3\".");
  EXPECT_EQ(UsageError({"ev-profile", "add", "e", "x"}),
            "Error: events \"x\" is not one of good, skip, assumed-bad, denied, none.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "e", "x"}),
            "Error: argument \"e\" is ambiguous: events, evs, ev, ev-state.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "evs", "1,x"}),
            "Error: evs \"x\" is not a number.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "evs", "65536"}),
            "Error: evs 65536 is out of range 0..65535.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "evs", "5@16"}),
            "Error: evs plane 16 is out of range 0..15.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "evs", "5@"}),
            "Error: evs plane \"\" is not a number.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "count", "1", "evs", "5,6"}),
            "Error: evs lists 2 EVs, more than count 1.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "ev", "5"}),
            "Error: ev VALUE needs ev-state STATE.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "ev-state", "good"}),
            "Error: ev-state needs ev VALUE.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "plane", "1"}), "Error: plane needs ev VALUE.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "ev", "5", "ev-state", "skip"}),
            "Error: ev-state \"skip\" is not one of good, assumed-bad, denied.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "ev", "5", "ev-state", "good", "evs", "1"}),
            "Error: evs and ev cannot be combined.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "ev", "65536"}),
            "Error: ev 65536 is out of range 0..65535.");
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "id", "2"}), "Error: duplicate \"id\".");
  EXPECT_EQ(UsageError({"ev-profile", "del", "1", "state", "init"}),
            "Error: unknown argument \"state\".");
}

TEST_F(EvProfile, TooManyExplicitEvs) {
  std::string evs = "0";
  for (int i = 1; i <= 1024; i++) {
    evs += "," + std::to_string(i);
  }
  EXPECT_EQ(UsageError({"ev-profile", "set", "1", "evs", evs}),
            "Error: evs lists 1025 EVs, more than 1024.");
}

TEST_F(EvProfile, DelSendsTheId) {
  ASSERT_EQ(Run({"ev-profile", "del", "16384"}).status, kExitOk);
  EXPECT_EQ(kernel()->id_sent, 16384U);
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"DelEvProfile"});
}

TEST_F(EvProfile, DumpHasNoEvList) {
  kernel()->ev_profiles = {Auto()};
  const Result r = Run({"ev-profile"});
  EXPECT_EQ(r.out,
            "ev-profile 1 state init mode auto count 16 min-active 0 events none seed 7 users 2\n");
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"DumpEvProfiles"});
}

TEST_F(EvProfile, ShowOneListsItsEvs) {
  const Result r = Run({"ev-profile", "show", "3"});
  EXPECT_EQ(kernel()->calls, std::vector<std::string>{"GetEvProfile"});
  EXPECT_EQ(r.out,
            "ev-profile 3 state online mode explicit count 2 min-active 1 "
            "events assumed-bad,denied seed 0 users 0\n"
            "    index 0 ev 100 plane 0 state good\n"
            "    index 1 ev 200 plane 1 state denied\n");
}

TEST_F(EvProfile, ShowOneAsJson) {
  const Result r = Run({"-j", "ev-profile", "show", "3"});
  EXPECT_EQ(r.out, R"([{"id":3,"state":"online","mode":"explicit","count":2,"min-active":1,)"
                   R"("events":["assumed-bad","denied"],"seed":0,"users":0,"evs":[)"
                   R"({"index":0,"ev":100,"plane":0,"state":"good"},)"
                   R"({"index":1,"ev":200,"plane":1,"state":"denied"}]}])"
                   "\n");
}

}  // namespace
