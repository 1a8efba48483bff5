// SPDX-License-Identifier: MIT
#include "statetravel.h"

#include "palette.h"
#include "stategeometry.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr std::size_t kLookBack = 512;  // the rank's own last event before a change
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
    std::size_t e = std::min(change.eventCount, trace.events.size());
    for (std::size_t steps = 0; e > 0 && steps < kLookBack; --e, ++steps)
        if (trace.events[e - 1].rank == change.rank)
            return &trace.events[e - 1];
    return nullptr;
}

std::vector<int> collectiveMembers(const core::Trace &trace, const core::Event &event)
{
    const auto at = std::size_t(&event - trace.events.data());
    const std::size_t from = at > kLookAround ? at - kLookAround : 0;
    const std::size_t to = std::min(trace.events.size(), at + kLookAround);
    std::vector<int> members;
    for (std::size_t e = from; e < to; ++e) {
        const core::Event &other = trace.events[e];
        if (other.op == event.op && other.link == event.link && other.rank != event.rank)
            members.push_back(other.rank);
    }
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    return members;
}

} // namespace

QRectF travelRect(const QRectF &start, const QRectF &end, double t)
{
    const double k = eased(t);
    const auto lerp = [k](double a, double b) { return a + (b - a) * k; };
    return {lerp(start.left(), end.left()), lerp(start.top(), end.top()),
            lerp(start.width(), end.width()), lerp(start.height(), end.height())};
}

QColor travelColor(const QColor &own, double t)
{
    const double landing = std::clamp((t - 0.5) / 0.5, 0.0, 1.0);
    return mixed(Palette::current().message(), own, landing);
}

std::vector<int> sendersOf(const core::Trace &trace, const core::StorageChange &change)
{
    const core::Event *event = lastEventOf(trace, change);
    if (!event || !core::isCommunication(event->op))
        return {};
    if (event->op == core::OpKind::Receive)
        return event->peer >= 0 ? std::vector<int>{event->peer} : std::vector<int>{};
    if (core::isCollective(event->op))
        return collectiveMembers(trace, *event);
    return {}; // the sender of a pass_to stores nothing new
}

std::vector<Travel> findTravels(const core::Trace &trace, const replay::RunState &state,
                                const StateChanges &changes, const std::vector<int> &shown,
                                const std::function<QRectF(int)> &panelOf)
{
    std::vector<Travel> travels;
    const int layers = std::max(1, trace.config.layers);
    for (int rank : shown) {
        if (!changes.anyFor(rank) || rank < 0 || std::size_t(rank) >= state.ranks.size())
            continue;
        const QRectF panel = panelOf(rank);
        const replay::RankState &held = state.ranks[std::size_t(rank)];
        for (const PlacedObject &placed : placeObjects(panelLayout(panel, layers), held)) {
            if (!changes.arrived(rank, placed.map, placed.index))
                continue;
            const core::StorageChange &change = *held.map(placed.map)[placed.index].change;
            for (int sender : sendersOf(trace, change)) {
                if (std::find(shown.begin(), shown.end(), sender) == shown.end())
                    continue;
                const QPointF offset = panelOf(sender).topLeft() - panel.topLeft();
                travels.push_back({sender, rank, placed.map, placed.index,
                                   placed.rect.translated(offset), placed.rect});
            }
        }
    }
    return travels;
}

} // namespace rankstep::gui
