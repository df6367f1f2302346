#pragma once

namespace Presence::Protocol {

// One callable from several lambdas, for std::visit over a ClientMessage or ServerMessage:
// each alternative gets its own line, and one left without a handler does not compile, so a
// new message type cannot be dropped in silence.
template <typename... Handlers> struct Overloaded : Handlers... {
    using Handlers::operator()...;
};
// Spelt out for clang before 17, which deduces an aggregate's arguments only with a guide.
template <typename... Handlers> Overloaded(Handlers...) -> Overloaded<Handlers...>;

} // namespace Presence::Protocol
