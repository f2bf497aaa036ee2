#include "drape/rig/bvh_motion.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace {
struct Token {
  std::string text;
  std::size_t line;
};

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> out;
  std::size_t line = 1, i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '{' || c == '}') {
      out.push_back({std::string(1, c), line});
      ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '{' &&
             text[j] != '}')
        ++j;
      out.push_back({text.substr(i, j - i), line});
      i = j;
    }
  }
  return out;
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : toks_(tokenize(text)), src_(source) {}

  BvhMotion parse() {
    expect("HIERARCHY");
    const Token& root = next("ROOT");
    if (root.text != "ROOT") fail(root.line, "expected ROOT, found '" + root.text + "'");
    parse_joint(-1);
    if (m_.joints.empty()) fail(1, "no joints");
    expect("MOTION");
    expect("Frames:");
    const Token& fc = next("a frame count");
    const double frames = number(fc);
    if (frames < 0 || frames != std::floor(frames)) fail(fc.line, "bad frame count '" + fc.text + "'");
    const Token& ft = next("Frame");
    if (ft.text != "Frame") fail(ft.line, "expected 'Frame Time:', found '" + ft.text + "'");
    expect("Time:");
    m_.frame_time = number(next("a frame time"));
    if (!(m_.frame_time > 0)) fail(toks_[pos_ - 1].line, "frame time must be positive");
    const std::size_t available = toks_.size() - pos_;
    if (m_.channel_count > 0 && frames > static_cast<double>(available))
      fail(fc.line, "header says " + fc.text + " frames but the file has only " + std::to_string(available) +
                        " values");
    const std::size_t n = static_cast<std::size_t>(frames);
    const std::size_t need = n * static_cast<std::size_t>(m_.channel_count);
    if (available != need)
      fail(pos_ < toks_.size() ? toks_[pos_].line : toks_.back().line,
           "header says " + std::to_string(n) + " frames x " + std::to_string(m_.channel_count) +
               " channels = " + std::to_string(need) + " values, file has " + std::to_string(available));
    m_.frames.assign(n, std::vector<double>(m_.channel_count));
    for (std::size_t f = 0; f < n; ++f)
      for (int c = 0; c < m_.channel_count; ++c) m_.frames[f][c] = number(toks_[pos_++]);
    return std::move(m_);
  }

 private:
  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw InvalidInput(src_, line, what);
  }

  const Token& next(const std::string& what) {
    if (pos_ >= toks_.size())
      fail(toks_.empty() ? 1 : toks_.back().line, "unexpected end of file, expected " + what);
    return toks_[pos_++];
  }
  void expect(const std::string& word) {
    const Token& t = next("'" + word + "'");
    if (t.text != word) fail(t.line, "expected '" + word + "', found '" + t.text + "'");
  }
  double number(const Token& t) const {
    double v = 0;
    const char* b = t.text.data();
    const char* e = b + t.text.size();
    if (*b == '+') ++b;
    const auto r = std::from_chars(b, e, v);
    if (r.ec != std::errc() || r.ptr != e || !std::isfinite(v))
      fail(t.line, "'" + t.text + "' is not a finite number");
    return v;
  }
  Vec3 offset() {
    expect("OFFSET");
    Vec3 o;
    for (int a = 0; a < 3; ++a) o[a] = number(next("an offset value"));
    return o;
  }

  void parse_joint(int parent, int depth = 0) {
    const Token& name = next("a joint name");
    if (depth > 1000) fail(name.line, "joint hierarchy deeper than 1000 levels");
    if (name.text == "{") fail(name.line, "joint without a name");
    BvhJoint j;
    j.name = name.text;
    j.parent = parent;
    for (const BvhJoint& other : m_.joints)
      if (other.name == j.name) fail(name.line, "duplicate joint name '" + j.name + "'");
    expect("{");
    j.offset = offset();
    const Token& ch = next("CHANNELS");
    if (ch.text != "CHANNELS") fail(ch.line, "expected CHANNELS, found '" + ch.text + "'");
    const Token& cnt = next("a channel count");
    const double nc = number(cnt);
    if (nc < 0 || nc > 6 || nc != std::floor(nc)) fail(cnt.line, "bad channel count '" + cnt.text + "'");
    for (int c = 0; c < static_cast<int>(nc); ++c) {
      const Token& t = next("a channel name");
      static const char* names[] = {"Xposition", "Yposition", "Zposition",
                                    "Xrotation", "Yrotation", "Zrotation"};
      int k = -1;
      for (int i = 0; i < 6; ++i)
        if (t.text == names[i]) k = i;
      if (k < 0) fail(t.line, "unknown channel '" + t.text + "' of joint '" + j.name + "'");
      j.channels.push_back(static_cast<BvhChannel>(k));
    }
    j.channel_offset = m_.channel_count;
    m_.channel_count += static_cast<int>(nc);
    const int index = static_cast<int>(m_.joints.size());
    m_.joints.push_back(j);
    while (true) {
      const Token& t = next("'}'");
      if (t.text == "}") return;
      if (t.text == "JOINT") {
        parse_joint(index, depth + 1);
      } else if (t.text == "End") {
        expect("Site");
        expect("{");
        m_.joints[index].has_end_site = true;
        m_.joints[index].end_offset = offset();
        expect("}");
      } else {
        fail(t.line, "expected JOINT, End Site or '}' in joint '" + j.name + "', found '" + t.text + "'");
      }
    }
  }

  std::vector<Token> toks_;
  std::string src_;
  std::size_t pos_ = 0;
  BvhMotion m_;
};
}  // namespace

BvhMotion parse_bvh(const std::string& text, const std::string& source) {
  return Parser(text, source).parse();
}

BvhMotion read_bvh(const std::filesystem::path& path) { return parse_bvh(read_file(path), path.string()); }

int BvhMotion::find(const std::string& name) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
}

Mat3 BvhMotion::local_rotation(int j, std::size_t f) const {
  const BvhJoint& joint = joints[j];
  Mat3 r;
  const double k = std::numbers::pi / 180.0;
  for (std::size_t c = 0; c < joint.channels.size(); ++c) {
    const double v = frames[f][joint.channel_offset + c] * k;
    switch (joint.channels[c]) {
      case BvhChannel::x_rotation:
        r = r * Mat3::rotation_x(v);
        break;
      case BvhChannel::y_rotation:
        r = r * Mat3::rotation_y(v);
        break;
      case BvhChannel::z_rotation:
        r = r * Mat3::rotation_z(v);
        break;
      default:
        break;
    }
  }
  return r;
}

Vec3 BvhMotion::local_translation(int j, std::size_t f) const {
  const BvhJoint& joint = joints[j];
  Vec3 t = joint.offset;
  for (std::size_t c = 0; c < joint.channels.size(); ++c) {
    const double v = frames[f][joint.channel_offset + c];
    switch (joint.channels[c]) {
      case BvhChannel::x_position:
        t.x += v;
        break;
      case BvhChannel::y_position:
        t.y += v;
        break;
      case BvhChannel::z_position:
        t.z += v;
        break;
      default:
        break;
    }
  }
  return t;
}

BvhMotion::WorldPose BvhMotion::world_pose(std::size_t f) const {
  if (f >= frames.size())
    throw InvalidInput("BVH frame " + std::to_string(f) + " out of range (" + std::to_string(frames.size()) +
                       " frames)");
  WorldPose w;
  w.rotation.resize(joints.size());
  w.position.resize(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const int p = joints[j].parent;
    const Vec3 t = local_translation(static_cast<int>(j), f);
    const Mat3 r = local_rotation(static_cast<int>(j), f);
    if (p < 0) {
      w.position[j] = t;
      w.rotation[j] = r;
    } else {
      w.position[j] = w.position[p] + w.rotation[p] * t;
      w.rotation[j] = w.rotation[p] * r;
    }
  }
  return w;
}

std::vector<Vec3> BvhMotion::rest_positions() const {
  std::vector<Vec3> p(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j)
    p[j] = joints[j].parent < 0 ? joints[j].offset : p[joints[j].parent] + joints[j].offset;
  return p;
}

double BvhMotion::rest_extent() const {
  const std::vector<Vec3> p = rest_positions();
  if (p.empty()) return 0;
  Vec3 lo = p[0], hi = p[0];
  for (std::size_t j = 0; j < p.size(); ++j) {
    lo = cwise_min(lo, p[j]);
    hi = cwise_max(hi, p[j]);
    if (joints[j].has_end_site) {
      lo = cwise_min(lo, p[j] + joints[j].end_offset);
      hi = cwise_max(hi, p[j] + joints[j].end_offset);
    }
  }
  const Vec3 e = hi - lo;
  return std::max({e.x, e.y, e.z});
}

}  // namespace drape
