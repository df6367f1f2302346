#pragma once

#include <QDateTime>
#include <QStyledItemDelegate>

#include <functional>

class QTextLayout;

namespace Presence::Ui {

// One chat message as a bubble: ours on the trailing side in the palette's highlight
// colour, the friend's on the leading side in a tint of the base colour. Under the text a
// small line gives the time and, for ours, where it stands: "waiting for connection",
// "sending…", "not confirmed yet", "sent" or "not sent". A message the gateway has not
// acknowledged has a dashed outline and fainter colours, one it refused an outline in the
// error colour. Rows are as tall as their wrapped text, so the view must not use uniform
// item sizes, and must lay items out again when its width changes.
class ChatMessageDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using NowFunction = std::function<QDateTime()>;

    struct BubbleLayout {
        QRect bubble;
        QRectF text; // where the wrapped text starts and how big it is
        QRect meta;
        QString metaText; // what goes in `meta`
    };

    explicit ChatMessageDelegate(QObject *parent = nullptr);

    // The clock that decides between "14:05" (today) and "12 Mar, 14:05".
    void setNowFunction(NowFunction now);
    [[nodiscard]] QDateTime now() const;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    [[nodiscard]] QSize sizeHint(
        const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override;

    // The small line under a message: its time, and for ours where it stands.
    [[nodiscard]] static QString metaText(const QModelIndex &index, const QDateTime &now);
    // "You, 14:05: hi" / "Alice, 14:05: hi", with the delivery state: for screen readers.
    [[nodiscard]] static QString accessibleText(
        const QModelIndex &index, const QString &friendName, const QDateTime &now);

    [[nodiscard]] BubbleLayout layout(const QStyleOptionViewItem &option, const QModelIndex &index,
        QTextLayout *textLayout = nullptr) const;

private:
    NowFunction m_now;
};

} // namespace Presence::Ui
