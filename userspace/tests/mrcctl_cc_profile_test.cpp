// SPDX-License-Identifier: GPL-2.0
// mrcctl cc-profile: grammar, NSCC parameters (decimals as ppm), output.
#include <gtest/gtest.h>

#include "fake_control.hpp"

namespace {

using mrcctl::kExitOk;
using mrcctl::kExitUsage;

mrc::CcProfile Nscc() {
  return mrc::CcProfile{
      .id = 2,
      .state = mrc::ProfileState::kOnline,
      .algorithm = "uet-1.0-nscc",
      .nscc =
          mrc::Nscc{
              .base_rtt = 8000,
              .target_delay = 12000,
              .max_cwnd = 1048576,
              .eta = 200000,
              .fi = 1,
              .fi_scale = 1000000,
              .gamma = 2500000,
              .max_md_jump = 500000,
              .qa_gate = 3,
              .qa_threshold = 4000,
              .disable_qa = false,
              .adjust_bytes = 4096,
              .adjust_period = 100000,
          },
      .users = 1,
  };
}

class CcProfile : public Mrcctl {
 protected:
  void SetUp() override {
    kernel()->cc_profiles = {Nscc()};
    kernel()->cc_profile_reply = Nscc();
  }

  std::string UsageError(const std::vector<std::string_view>& args) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, kExitUsage);
    EXPECT_NE(r.err.find("\nUsage: mrcctl cc-profile add"), std::string::npos) << r.err;
    EXPECT_TRUE(kernel()->calls.empty());
    return FirstLine(r.err);
  }

  const mrc::CcProfile& Sent() { return *kernel()->cc_profile_sent; }
};

constexpr const char* kNsccText =
    "cc-profile 2 state online algorithm uet-1.0-nscc users 1 base-rtt 8000 target-delay 12000 "
    "max-cwnd 1048576 eta 0.2 fi 0.000001 fi-scale 1 gamma 2.5 max-md-jump 0.5 qa-gate 3 "
    "qa-threshold 4000 disable-qa off adjust-bytes 4096 adjust-period 100000\n";

TEST_F(CcProfile, AddSendsEveryParameter) {
  const Result r =
      Run({"cc-profile",    "add",         "id",           "5",      "algorithm",    "nscc",
           "base-rtt",      "9000",        "target-delay", "12000",  "max-cwnd",     "65536",
           "eta",           "0.15",        "fi",           "1",      "fi-scale",     ".5",
           "gamma",         "4294.967295", "max-md-jump",  "1.0",    "qa-gate",      "255",
           "qa-threshold",  "0",           "disable-qa",   "on",     "adjust-bytes", "1500",
           "adjust-period", "20000",       "state",        "offline"});
  ASSERT_EQ(r.status, kExitOk) << r.err;
  EXPECT_EQ(Sent().id, 5U);
  EXPECT_EQ(Sent().algorithm, "uet-1.0-nscc");  // the alias is sent by its name
  EXPECT_EQ(Sent().state, mrc::ProfileState::kOffline);
  EXPECT_EQ(Sent().nscc, (mrc::Nscc{
                             .base_rtt = 9000,
                             .target_delay = 12000,
                             .max_cwnd = 65536,
                             .eta = 150000,
                             .fi = 1000000,
                             .fi_scale = 500000,
                             .gamma = 4294967295U,
                             .max_md_jump = 1000000,
                             .qa_gate = 255,
                             .qa_threshold = 0,
                             .disable_qa = true,
                             .adjust_bytes = 1500,
                             .adjust_period = 20000,
                         }));
  EXPECT_EQ(r.out, kNsccText);
}

TEST_F(CcProfile, OnlyGivenParametersAreSent) {
  ASSERT_EQ(Run({"cc-profile", "add", "algorithm", "uet"}).status, kExitOk);
  EXPECT_TRUE(Sent().nscc.Empty());
  EXPECT_FALSE(Sent().id || Sent().state);
  ASSERT_EQ(Run({"cc-profile", "set", "2", "eta", "0.000001"}).status, kExitOk);
  EXPECT_EQ(Sent().nscc, (mrc::Nscc{.eta = 1}));
  EXPECT_EQ(Sent().id, 2U);
  EXPECT_FALSE(Sent().algorithm);
}

TEST_F(CcProfile, Errors) {
  EXPECT_EQ(UsageError({"cc-profile", "add", "algorithm", "cubic"}),
            "Error: algorithm \"cubic\" is not one of uet-1.0-nscc, nscc.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "base-rtt", "20000", "target-delay", "10000"}),
            "Error: target-delay 10000 is below base-rtt 20000.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "id", "1025"}),
            "Error: id 1025 is out of range 1..1024.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "eta", "abc"}),
            "Error: eta \"abc\" is not a decimal number.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "eta", "1."}),
            "Error: eta \"1.\" is not a decimal number.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "eta", "-0.1"}),
            "Error: eta \"-0.1\" is not a decimal number.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "eta", "0.1234567"}),
            "Error: eta \"0.1234567\" has more than 6 decimals.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "gamma", "4294.967296"}),
            "Error: gamma 4294.967296 is out of range 0..4294.967295.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "gamma", "99999999999999999999999"}),
            "Error: gamma 99999999999999999999999 is out of range 0..4294.967295.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "max-md-jump", "1.000001"}),
            "Error: max-md-jump 1.000001 is out of range 0..1.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "qa-gate", "256"}),
            "Error: qa-gate 256 is out of range 0..255.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "disable-qa", "yes"}),
            "Error: disable-qa \"yes\" is not one of on, off.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "base-rtt", "4294967296"}),
            "Error: base-rtt 4294967296 is out of range 0..4294967295.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "f", "1"}),
            "Error: argument \"f\" is ambiguous: fi, fi-scale.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "max", "1"}),
            "Error: argument \"max\" is ambiguous: max-cwnd, max-md-jump.");
  EXPECT_EQ(UsageError({"cc-profile", "add", "eta", "1", "eta", "2"}), "Error: duplicate \"eta\".");
  EXPECT_EQ(UsageError({"cc-profile", "set", "eta", "1"}), "Error: profile ID is required.");
  EXPECT_EQ(UsageError({"cc-profile", "del", "0"}), "Error: id 0 is out of range 1..1024.");
}

TEST_F(CcProfile, ShowAndDel) {
  Result r = Run({"cc-profile"});
  EXPECT_EQ(r.out, kNsccText);
  EXPECT_EQ(kernel()->calls.back(), "DumpCcProfiles");
  r = Run({"cc-profile", "show", "2"});
  EXPECT_EQ(r.out, kNsccText);
  EXPECT_EQ(kernel()->calls.back(), "GetCcProfile");
  ASSERT_EQ(Run({"cc-profile", "del", "id", "2"}).status, kExitOk);
  EXPECT_EQ(kernel()->calls.back(), "DelCcProfile");
  EXPECT_EQ(kernel()->id_sent, 2U);
}

TEST_F(CcProfile, JsonGivesDecimalsAsNumbers) {
  const Result r = Run({"-j", "cc-profile", "show"});
  EXPECT_EQ(r.out,
            R"([{"id":2,"state":"online","algorithm":"uet-1.0-nscc","users":1,"base-rtt":8000,)"
            R"("target-delay":12000,"max-cwnd":1048576,"eta":0.2,"fi":1e-06,"fi-scale":1.0,)"
            R"("gamma":2.5,"max-md-jump":0.5,"qa-gate":3,"qa-threshold":4000,)"
            R"("disable-qa":false,"adjust-bytes":4096,"adjust-period":100000}])"
            "\n");
}

}  // namespace
