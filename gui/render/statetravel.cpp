// SPDX-License-Identifier: MIT
#include "statetravel.h"

#include "palette.h"
#include "stategeometry.h"

#include <algorithm>
#include <map>

namespace rankstep::gui {
namespace {

constexpr std::size_t kLookBack = 512;    // the rank's own last event before a change
constexpr std::size_t kLookAround = 4096; // the other members' events of one collective

double eased(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

QColor mixed(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// The rank's last event before the change, if it is near.
const core::Event *lastEventOf(const core::Trace &trace, const core::StorageChange &change)
{
    std::size_t e = std::min(std::size_t(change.eventCount), trace.events.size());
    for (std::size_t steps = 0; e > 0 && steps < kLookBack; --e, ++steps)
        if (trace.events[e - 1].rank == change.rank)
            return &trace.events[e - 1];
    return nullptr;
}

// Every rank of the collective `event` belongs to, the event's own rank included.
std::vector<int> collectiveMembers(const core::Trace &trace, const core::Event &event)
{
    const auto at = trace.events.indexOf(&event);
    const std::size_t from = at > kLookAround ? at - kLookAround : 0;
    const std::size_t to = std::min(trace.events.size(), at + kLookAround);
    std::vector<int> members;
    for (std::size_t e = from; e < to; ++e) {
        const core::Event &other = trace.events[e];
        if (other.op == event.op && other.link == event.link)
            members.push_back(other.rank);
    }
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    return members;
}

// The members of each collective asked for, found once: the ranks of one step mostly took part
// in the same collective.
using MemberCache = std::map<std::pair<core::OpKind, std::int64_t>, std::vector<int>>;

std::vector<int> senders(const core::Trace &trace, const core::StorageChange &change,
                         MemberCache &cache)
{
    const core::Event *event = lastEventOf(trace, change);
    if (!event || !core::isCommunication(event->op))
        return {};
    if (event->op == core::OpKind::Receive)
        return event->peer >= 0 ? std::vector<int>{event->peer} : std::vector<int>{};
    if (!core::isCollective(event->op))
        return {}; // the sender of a pass_to stores nothing new
    const auto key = std::make_pair(event->op, event->link);
    auto found = cache.find(key);
    if (found == cache.end())
        found = cache.emplace(key, collectiveMembers(trace, *event)).first;
    std::vector<int> others = found->second;
    others.erase(std::remove(others.begin(), others.end(), event->rank), others.end());
    return others;
}

} // namespace

QRectF travelRect(const QRectF &start, const QRectF &end, double t)
{
    const double k = eased(t);
    const auto lerp = [k](double a, double b) {
        return a + (b - a) * k;
    };
    return {lerp(start.left(), end.left()), lerp(start.top(), end.top()),
            lerp(start.width(), end.width()), lerp(start.height(), end.height())};
}

QColor travelColor(const QColor &own, double t, const Palette &palette)
{
    const double landing = std::clamp((t - 0.5) / 0.5, 0.0, 1.0);
    return mixed(palette.message(), own, landing);
}

std::vector<int> sendersOf(const core::Trace &trace, const core::StorageChange &change)
{
    MemberCache cache;
    return senders(trace, change, cache);
}

std::vector<Travel> findTravels(const core::Trace &trace, const replay::RunState &state,
                                const StateChanges &changes, const std::vector<int> &shown,
                                const std::function<QRectF(int)> &panelOf)
{
    std::vector<Travel> travels;
    const int layers = std::max(1, trace.config.layers);
    std::vector<QRectF> panels; // of the shown ranks, in order: looked up once
    panels.reserve(shown.size());
    for (int rank : shown)
        panels.push_back(panelOf(rank));
    MemberCache members;
    std::size_t arrived = 0;
    for (std::size_t slot = 0; slot < shown.size(); ++slot) {
        const int rank = shown[slot];
        if (!changes.anyFor(rank) || rank < 0 || std::size_t(rank) >= state.ranks.size())
            continue;
        const replay::RankState &held = state.ranks[std::size_t(rank)];
        for (const PlacedObject &placed : placeObjects(panelLayout(panels[slot], layers), held)) {
            if (!changes.arrived(rank, placed.map, placed.index))
                continue;
            if (++arrived > kMaxTravels)
                return {}; // a jump across the run, not a step: nothing to follow
            const core::StorageChange &change = *held.map(placed.map)[placed.index].change;
            for (int sender : senders(trace, change, members)) {
                const auto at = std::find(shown.begin(), shown.end(), sender);
                if (at == shown.end())
                    continue;
                const QPointF offset =
                    panels[std::size_t(at - shown.begin())].topLeft() - panels[slot].topLeft();
                travels.push_back({sender, rank, placed.map, placed.index,
                                   placed.rect.translated(offset), placed.rect});
            }
        }
    }
    return travels;
}

} // namespace rankstep::gui
