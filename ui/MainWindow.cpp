#include "ui/MainWindow.h"

#include "models/FriendListModel.h"
#include "session/GatewaySession.h"
#include "ui/FriendListPane.h"
#include "ui/SessionHeader.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

namespace Presence::Ui {

MainWindow::MainWindow(
    Session::GatewaySession *session, Models::FriendListModel *model, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_model(model)
    , m_header(new SessionHeader(session, this))
    , m_friends(new FriendListPane(session, model, this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Presence Chat"));
    auto *placeholder = new QLabel(tr("Select a friend to chat."), this);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setEnabled(false);
    m_splitter->addWidget(m_friends);
    m_splitter->addWidget(placeholder);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    statusBar()->addWidget(m_status, 1);

    connect(m_friends, &FriendListPane::chatRequested, this, &MainWindow::chatRequested);
    auto *search = new QShortcut(QKeySequence::Find, this);
    connect(search, &QShortcut::activated, this, [this] {
        m_friends->searchBox()->setFocus(Qt::ShortcutFocusReason);
        m_friends->searchBox()->selectAll();
    });
    auto *quit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q), this);
    connect(quit, &QShortcut::activated, this, &QWidget::close);

    // The counts change with every presence push and scroll: recount at most 4 times a second.
    m_statusTimer.setSingleShot(true);
    m_statusTimer.setInterval(std::chrono::milliseconds(250));
    connect(&m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);
    const auto schedule = [this] { scheduleStatusUpdate(); };
    connect(model, &QAbstractItemModel::dataChanged, this, schedule);
    connect(model, &QAbstractItemModel::modelReset, this, schedule);
    connect(session, &Session::GatewaySession::subscriptionsChanged, this, schedule);
    connect(m_friends->view()->verticalScrollBar(), &QScrollBar::valueChanged, this, schedule);
    connect(m_friends->proxy(), &QAbstractItemModel::layoutChanged, this, schedule);
    updateStatus();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::scheduleStatusUpdate()
{
    if (!m_statusTimer.isActive())
        m_statusTimer.start();
}

void MainWindow::updateStatus()
{
    const auto [shown, online] = m_friends->shownAndOnline();
    Q_UNUSED(shown);
    m_status->setText(tr("%1 friends · %2 online among those shown · %3 subscribed")
                          .arg(m_model->rowCount())
                          .arg(online)
                          .arg(m_session->subscribed().size()));
}

} // namespace Presence::Ui
