// IO.DATASET: readers of the real data sets (include/dpref/io/dataset.hpp). Files are written to
// a temporary directory; expected values are the literal contents of those files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dpref/io/dataset.hpp"

namespace {

using dpref::mp50;

class IO_DATASET : public ::testing::Test {
 protected:
  std::filesystem::path dir_;
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("dpref_io_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

TEST_F(IO_DATASET, CsvReadsHeaderLabelsAndValues) {
  const auto path = write("a.csv", "# comment\nlabel,x,y\n0,0.5,1\n1,0.1,0\r\n");
  const auto data = dpref::io::read_csv_binary<double>(path);
  ASSERT_EQ(data.size(), 2);
  ASSERT_EQ(data.dimension(), 2);
  EXPECT_EQ(data.feature_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(data.y[0], -1.0);
  EXPECT_EQ(data.y[1], 1.0);
  EXPECT_EQ(data.X(0, 0), 0.5);
  EXPECT_EQ(data.X(1, 0), 1.0);
  EXPECT_EQ(data.X(0, 1), 0.1);  // correctly rounded decimal
}

TEST_F(IO_DATASET, CsvMp50ParsesDecimalsAtFullPrecision) {
  const auto path = write("a.csv", "label,x\n1,0.1\n");
  const auto data = dpref::io::read_csv_binary<mp50>(path);
  EXPECT_EQ(data.X(0, 0), mp50(1) / 10);  // not the widened double 0.1
  EXPECT_NE(data.X(0, 0), mp50(0.1));
}

TEST_F(IO_DATASET, CsvMalformedInputsThrowNamingTheLine) {
  const auto expect_throw = [&](const std::string& text, const std::string& needle) {
    const auto path = write("bad.csv", text);
    try {
      (void)dpref::io::read_csv_binary<double>(path);
      ADD_FAILURE() << "no exception for " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_throw("", "no header");
  expect_throw("x,y\n1,2\n", "header");
  expect_throw("label,x\n", "no data rows");
  expect_throw("label,x\n1,2,3\n", "line 2");
  expect_throw("label,x\n2,0.5\n", "label must be");
  expect_throw("label,x\n1,abc\n", "feature 'x'");
  expect_throw("label,x\n1,nan\n", "feature 'x'");
  expect_throw("label,x\n1,\n", "feature 'x'");
  EXPECT_THROW((void)dpref::io::read_csv_binary<double>((dir_ / "missing.csv").string()),
               std::invalid_argument);
}

TEST_F(IO_DATASET, LibsvmReadsSparseColumns) {
  const auto path = write("a.svm", "1 1:0.5 3:2\n0 2:1\n");
  const auto data = dpref::io::read_libsvm<double>(path, 4);
  ASSERT_EQ(data.size(), 2);
  ASSERT_EQ(data.dimension(), 4);
  EXPECT_EQ(data.X.nonZeros(), 3);
  EXPECT_EQ(data.X.coeff(0, 0), 0.5);
  EXPECT_EQ(data.X.coeff(2, 0), 2.0);
  EXPECT_EQ(data.X.coeff(1, 1), 1.0);
  EXPECT_EQ(data.X.coeff(3, 1), 0.0);
  EXPECT_EQ(data.y[0], 1.0);
  EXPECT_EQ(data.y[1], -1.0);
  EXPECT_EQ(dpref::io::read_libsvm<double>(path).dimension(), 3);  // largest index present
}

TEST_F(IO_DATASET, LibsvmMalformedInputsThrow) {
  for (const std::string text : {"1 0:1\n", "1 2:1 1:1\n", "1 2:1 2:1\n", "1 5:1\n", "1 a:1\n",
                                 "1 2\n", "3 1:1\n", "1 1:x\n", ""}) {
    const auto path = write("bad.svm", text);
    EXPECT_THROW((void)dpref::io::read_libsvm<double>(path, 4), std::invalid_argument) << text;
  }
  EXPECT_THROW((void)dpref::io::read_libsvm<double>(write("ok.svm", "1 1:1\n"), -1),
               std::invalid_argument);
}

TEST_F(IO_DATASET, IdxImagesAndLabels) {
  // 3 images of 1×2 pixels, labels 0, 7, 0
  std::string img = std::string("\x00\x00\x08\x03", 4) + std::string("\x00\x00\x00\x03", 4) +
                    std::string("\x00\x00\x00\x01", 4) + std::string("\x00\x00\x00\x02", 4) +
                    std::string("\x00\xff\x33\x66\x99\xcc", 6);
  std::string lab = std::string("\x00\x00\x08\x01", 4) + std::string("\x00\x00\x00\x03", 4) +
                    std::string("\x00\x07\x00", 3);
  const auto X = dpref::io::read_idx_images<double>(write("img", img));
  const auto y = dpref::io::read_idx_labels(write("lab", lab));
  ASSERT_EQ(X.rows(), 2);
  ASSERT_EQ(X.cols(), 3);
  EXPECT_EQ(X(0, 0), 0.0);
  EXPECT_EQ(X(1, 0), 1.0);
  EXPECT_EQ(X(0, 1), 51.0 / 255.0);
  EXPECT_EQ(y, (std::vector<int>{0, 7, 0}));
  const auto two = dpref::io::select_two_classes<double>(X, y, 0, 7);
  EXPECT_EQ(two.y[0], -1.0);
  EXPECT_EQ(two.y[1], 1.0);
  EXPECT_THROW((void)dpref::io::select_two_classes<double>(X, y, 0, 3), std::invalid_argument);
  EXPECT_THROW((void)dpref::io::read_idx_images<double>(write("lab2", lab)), std::invalid_argument);
  EXPECT_THROW((void)dpref::io::read_idx_images<double>(write("short", img.substr(0, 20))),
               std::invalid_argument);
  EXPECT_THROW((void)dpref::io::read_idx_labels(write("img2", img)), std::invalid_argument);
}

}  // namespace

namespace {

std::string idx_header(std::uint32_t magic, std::initializer_list<std::uint32_t> dims) {
  std::string s;
  auto be = [&](std::uint32_t v) {
    for (int k = 3; k >= 0; --k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  };
  be(magic);
  for (auto d : dims) be(d);
  return s;
}

TEST(IO_DATASET_LIMITS, CorruptHeadersAreRefusedBeforeAllocating) {
  // 2^32-1 images of 2^32-1 x 2^32-1 pixels: d*n overflows 64 bits; must be refused, not crash
  std::istringstream huge(idx_header(0x803, {0xffffffffu, 0xffffffffu, 0xffffffffu}));
  try {
    (void)dpref::io::read_idx_images<double>(huge, "huge.idx");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than the reader's limits"), std::string::npos)
        << e.what();
  }
  // a plausible header with too few bytes present: truncated, named with both sizes
  std::istringstream shortfile(idx_header(0x803, {10, 28, 28}) + std::string(100, '\0'));
  try {
    (void)dpref::io::read_idx_images<double>(shortfile, "short.idx");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("header declares 7840 bytes, 100 present"),
              std::string::npos)
        << e.what();
  }
  std::istringstream labels(idx_header(0x801, {0xffffffffu}) + "ab");
  EXPECT_THROW((void)dpref::io::read_idx_labels<>(labels, "l.idx"), std::invalid_argument);
  // LIBSVM index beyond max_features (default 10^8; never more than 2^31 - 1, the index type)
  std::istringstream svm("1 3000000000:1\n");
  try {
    (void)dpref::io::read_libsvm<double>(svm, "big.svm");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("index must be an integer in [1, 100000000]"),
              std::string::npos)
        << e.what();
  }
  // CSV: more rows than the limit
  dpref::io::dataset_limits lim;
  lim.max_rows = 2;
  std::istringstream csv("label,a\n1,0.5\n0,0.25\n1,1\n");
  EXPECT_THROW((void)dpref::io::read_csv_binary<double>(csv, "rows.csv", lim),
               std::invalid_argument);
  std::istringstream ok("label,a\n1,0.5\n0,0.25\n");
  EXPECT_EQ(dpref::io::read_csv_binary<double>(ok, "rows.csv", lim).size(), 2);
}

}  // namespace
