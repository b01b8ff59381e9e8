// Counter-based bit stream: Philox-4x64-10 (Random123) addressed by
// (seed, stream id, substream id, position). See spec/random.md RAND.STREAM.*.
//
// Layout: key = {seed, stream}; counter = {position / 4, lane, substream, 0}.
// A *position* is one draw. Lane 0 of position p is word p % 4 of the lane-0 block;
// lanes 1, 2, ... hold extra words for the same draw. A sampler at precision p bits reads
// lanes 0 .. ceil(p/64)-1 of one position, so the i-th draw of a double run and the i-th
// draw of a 50-digit run see the same leading 64 bits (RAND.STREAM.ALIGN).
#pragma once

#include <Random123/philox.h>

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace dpref {

class philox_stream;

/// One draw of a stream: a position whose lane words can be read in any order.
/// Valid while the stream that produced it is alive.
class stream_draw {
 public:
  stream_draw(const philox_stream* s, std::uint64_t pos) : stream_(s), position_(pos) {}
  /// 64 random bits of lane `lane` of this draw (lane 0 = leading bits).
  std::uint64_t word(unsigned lane) const;
  std::uint64_t position() const { return position_; }

 private:
  const philox_stream* stream_;
  std::uint64_t position_;
};

class philox_stream {
 public:
  using result_type = std::uint64_t;
  static constexpr unsigned cached_lanes = 4;

  /// @param seed run seed; @param stream e.g. node or user id; @param substream e.g. iteration.
  /// @param position first draw to return (positions are counted in draws).
  explicit philox_stream(std::uint64_t seed, std::uint64_t stream = 0, std::uint64_t substream = 0,
                         std::uint64_t position = 0)
      : key_{{seed, stream}}, substream_(substream), position_(position) {
    for (auto& b : cached_block_) b = kNoBlock;
  }

  /// The same (seed, stream) with another substream, from position 0.
  philox_stream substream(std::uint64_t id) const {
    return philox_stream(key_.v[0], key_.v[1], id);
  }
  /// The same seed with another stream id, substream 0, position 0.
  philox_stream with_stream(std::uint64_t id) const { return philox_stream(key_.v[0], id, 0); }

  std::uint64_t seed() const { return key_.v[0]; }
  std::uint64_t stream_id() const { return key_.v[1]; }
  std::uint64_t substream_id() const { return substream_; }
  std::uint64_t position() const { return position_; }
  void seek(std::uint64_t position) { position_ = position; }

  /// Lane-0 word of the next position (one draw). UniformRandomBitGenerator interface.
  result_type operator()() { return word_at(advance(), 0); }

  /// Reserve the next position as a multi-lane draw.
  stream_draw next_draw() { return stream_draw(this, advance()); }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  /// Lane `lane` word of position `pos` (pure function of the address).
  std::uint64_t word_at(std::uint64_t pos, unsigned lane) const {
    const std::uint64_t block = pos >> 2;
    const unsigned slot = static_cast<unsigned>(pos & 3u);
    if (lane < cached_lanes) {
      if (cached_block_[lane] != block) {
        cache_[lane] = generate(block, lane);
        cached_block_[lane] = block;
      }
      return cache_[lane].v[slot];
    }
    return generate(block, lane).v[slot];
  }

 private:
  using philox = r123::Philox4x64;
  static constexpr std::uint64_t kNoBlock = std::numeric_limits<std::uint64_t>::max();

  std::uint64_t advance() {
    if (position_ == std::numeric_limits<std::uint64_t>::max())
      throw std::overflow_error("dpref::philox_stream: position exhausted (2^64 draws)");
    return position_++;
  }

  philox::ctr_type generate(std::uint64_t block, unsigned lane) const {
    philox::ctr_type ctr = {{block, lane, substream_, 0}};
    return philox{}(ctr, key_);
  }

  philox::key_type key_;
  std::uint64_t substream_;
  std::uint64_t position_;
  mutable std::array<std::uint64_t, cached_lanes> cached_block_{};
  mutable std::array<philox::ctr_type, cached_lanes> cache_{};
};

inline std::uint64_t stream_draw::word(unsigned lane) const {
  return stream_->word_at(position_, lane);
}

}  // namespace dpref
