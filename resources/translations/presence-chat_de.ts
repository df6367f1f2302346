<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ConnectionStatus</name>
    <message numerus="yes">
        <source>reconnecting in %n s…</source>
        <translation>
            <numerusform>neuer Verbindungsversuch in %n s…</numerusform>
            <numerusform>neuer Verbindungsversuch in %n s…</numerusform>
        </translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>reconnecting…</source>
        <translation>verbinde erneut…</translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation>keine Verbindung möglich</translation>
    </message>
</context>
<context>
    <name>Presence::App::DesktopNotifications</name>
    <message>
        <source>Notifications cannot be shown: this desktop has no notification service and no system tray</source>
        <translation>Benachrichtigungen können nicht angezeigt werden: Dieser Desktop hat weder einen Benachrichtigungsdienst noch einen Infobereich</translation>
    </message>
</context>
<context>
    <name>Presence::App::FriendOnlineNotifier</name>
    <message>
        <source>%1 is online</source>
        <translation>%1 ist online</translation>
    </message>
    <message>
        <source>%1 and %2 are online</source>
        <translation>%1 und %2 sind online</translation>
    </message>
    <message>
        <source>%1, %2 and %3 are online</source>
        <translation>%1, %2 und %3 sind online</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 and %n others are online</source>
        <translation>
            <numerusform>%1, %2 und %n weiterer Freund sind online</numerusform>
            <numerusform>%1, %2 und %n weitere Freunde sind online</numerusform>
        </translation>
    </message>
    <message>
        <source>Friend online</source>
        <translation>Freund online</translation>
    </message>
    <message>
        <source>Friends online</source>
        <translation>Freunde online</translation>
    </message>
</context>
<context>
    <name>Presence::App::SignInDialog</name>
    <message>
        <source>&amp;Remember token on this computer</source>
        <translation>Token auf diesem Computer &amp;merken</translation>
    </message>
    <message>
        <source>&amp;Sign in</source>
        <translation>&amp;Anmelden</translation>
    </message>
    <message>
        <source>Sign in to Presence Chat</source>
        <translation>Bei Presence Chat anmelden</translation>
    </message>
    <message>
        <source>Gateway address</source>
        <translation>Gateway-Adresse</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Remember token on this computer</source>
        <translation>Token auf diesem Computer merken</translation>
    </message>
    <message>
        <source>Sign-in status</source>
        <translation>Anmeldestatus</translation>
    </message>
    <message>
        <source>&amp;Gateway:</source>
        <translation>&amp;Gateway:</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <source>Enter the gateway address, for example %1</source>
        <translation>Gib die Adresse des Gateways ein, zum Beispiel %1</translation>
    </message>
    <message>
        <source>“%1” is not a gateway address. It should look like %2</source>
        <translation>„%1“ ist keine Gateway-Adresse. Sie sollte so aussehen: %2</translation>
    </message>
    <message>
        <source>The gateway address must start with ws:// or wss://, not %1://.</source>
        <translation>Die Gateway-Adresse muss mit ws:// oder wss:// beginnen, nicht mit %1://.</translation>
    </message>
    <message>
        <source>The gateway address has no host name. It should look like %1</source>
        <translation>Der Gateway-Adresse fehlt der Hostname. Sie sollte so aussehen: %1</translation>
    </message>
    <message>
        <source>Enter your token.</source>
        <translation>Gib dein Token ein.</translation>
    </message>
    <message>
        <source>This token is too long to be right (a token has at most %1 characters).</source>
        <translation>Dieses Token ist zu lang, um zu stimmen (ein Token hat höchstens %1 Zeichen).</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Cannot reach the gateway at %1 (trying again now…)</source>
        <translation>Das Gateway unter %1 ist nicht erreichbar (neuer Versuch läuft…)</translation>
    </message>
    <message>
        <source>Signing in…</source>
        <translation>Anmeldung läuft…</translation>
    </message>
    <message>
        <source>Cannot reach the gateway at %1 (retrying in %2 s)</source>
        <translation>Das Gateway unter %1 ist nicht erreichbar (neuer Versuch in %2 s)</translation>
    </message>
    <message>
        <source>Signed in.</source>
        <translation>Angemeldet.</translation>
    </message>
    <message>
        <source>The gateway at %1 speaks another version of the protocol than this app.</source>
        <translation>Das Gateway unter %1 spricht eine andere Protokollversion als diese App.</translation>
    </message>
    <message>
        <source>The gateway did not accept this token.</source>
        <translation>Das Gateway hat dieses Token nicht angenommen.</translation>
    </message>
    <message>
        <source>Tr&amp;ust this certificate for this server</source>
        <translation>Diesem Zertifikat für diesen Server &amp;vertrauen</translation>
    </message>
    <message>
        <source>Trust the &amp;new certificate</source>
        <translation>Dem &amp;neuen Zertifikat vertrauen</translation>
    </message>
    <message>
        <source>Certificate fingerprint</source>
        <translation>Fingerabdruck des Zertifikats</translation>
    </message>
    <message>
        <source>Only if this is your gateway&apos;s certificate: its administrator can tell you its fingerprint. Another certificate from this server will then be refused.</source>
        <translation>Nur wenn dies das Zertifikat deines Gateways ist: Dessen Administrator kann dir seinen Fingerabdruck nennen. Ein anderes Zertifikat von diesem Server wird danach abgelehnt.</translation>
    </message>
    <message>
        <source>Only if the gateway&apos;s administrator confirms that its certificate changed, and this is the new fingerprint.</source>
        <translation>Nur wenn der Administrator des Gateways bestätigt, dass sich sein Zertifikat geändert hat und dies der neue Fingerabdruck ist.</translation>
    </message>
    <message>
        <source>The certificate of %1 changed since you trusted it. This may mean that someone is intercepting the connection: trust the new certificate only if the gateway&apos;s administrator confirms it.</source>
        <translation>Das Zertifikat von %1 hat sich geändert, seit du ihm vertraut hast. Das kann bedeuten, dass jemand die Verbindung abfängt: Vertraue dem neuen Zertifikat nur, wenn der Administrator des Gateways es bestätigt.</translation>
    </message>
    <message>
        <source>Trusted before (SHA-256):
%1
Presented now:
%2</source>
        <extracomment>Two SHA-256 fingerprints, each in two lines of hex pairs (&quot;AB:CD:…&quot;).</extracomment>
        <translation>Bisher vertraut (SHA-256):
%1
Jetzt vorgelegt:
%2</translation>
    </message>
    <message>
        <source>The certificate of %1 is not trusted: %2. Trust it only if its fingerprint is the one your gateway&apos;s administrator gives you.</source>
        <extracomment>%1 is the gateway&apos;s address, %2 what is wrong with its certificate, as Qt says it.</extracomment>
        <translation>Dem Zertifikat von %1 wird nicht vertraut: %2. Vertraue ihm nur, wenn sein Fingerabdruck der ist, den dir der Administrator deines Gateways nennt.</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint:
%1</source>
        <extracomment>A SHA-256 fingerprint in two lines of hex pairs (&quot;AB:CD:…&quot;).</extracomment>
        <translation>SHA-256-Fingerabdruck:
%1</translation>
    </message>
</context>
<context>
    <name>Presence::Session::ChatController</name>
    <message>
        <source>Type a message first.</source>
        <translation>Schreib zuerst eine Nachricht.</translation>
    </message>
    <message>
        <source>The message is 1 character too long (at most %1).</source>
        <translation>Die Nachricht ist 1 Zeichen zu lang (höchstens %1).</translation>
    </message>
    <message>
        <source>The message is %1 characters too long (at most %2).</source>
        <translation>Die Nachricht ist %1 Zeichen zu lang (höchstens %2).</translation>
    </message>
    <message>
        <source>Not delivered: only friends can message each other.</source>
        <translation>Nicht zugestellt: Nur Freunde können sich gegenseitig schreiben.</translation>
    </message>
    <message>
        <source>Not delivered: %1</source>
        <translation>Nicht zugestellt: %1</translation>
    </message>
    <message>
        <source>This gateway offers no chat: messages cannot be sent through it.</source>
        <translation>Dieses Gateway bietet keinen Chat: Über es können keine Nachrichten gesendet werden.</translation>
    </message>
    <message>
        <source>Not delivered: this gateway offers no chat.</source>
        <translation>Nicht zugestellt: Dieses Gateway bietet keinen Chat.</translation>
    </message>
</context>
<context>
    <name>Presence::Session::FailureWords</name>
    <message>
        <source>%1 is a web server, not a presence gateway (it answered %2).</source>
        <translation>%1 ist ein Webserver, kein Presence-Gateway (Antwort: %2).</translation>
    </message>
    <message>
        <source>%1 refused the connection (%2): is this the gateway&apos;s address?</source>
        <extracomment>%1 is the server&apos;s address, %2 what it answered, e.g. &quot;HTTP 404 Not Found&quot;.</extracomment>
        <translation>%1 hat die Verbindung abgelehnt (%2): Ist das die Adresse des Gateways?</translation>
    </message>
    <message>
        <source>%1 is not a TLS server: use %2</source>
        <extracomment>%1 is the address tried (&quot;wss://host:port&quot;), %2 the one to use (&quot;ws://…&quot;).</extracomment>
        <translation>%1 ist kein TLS-Server: Verwende %2</translation>
    </message>
    <message>
        <source>%1 answered with TLS: use %2</source>
        <extracomment>%1 is the address tried (&quot;ws://host:port&quot;), %2 the one to use (&quot;wss://…&quot;).</extracomment>
        <translation>%1 hat mit TLS geantwortet: Verwende %2</translation>
    </message>
    <message>
        <source>The gateway did not accept the token.</source>
        <translation>Das Gateway hat das Token nicht angenommen.</translation>
    </message>
    <message>
        <source>The gateway speaks another protocol version.</source>
        <translation>Das Gateway spricht eine andere Protokollversion.</translation>
    </message>
    <message>
        <source>The certificate of %1 is not trusted: %2. If the gateway uses its own certificate authority, start the app with --ca-file and that authority&apos;s certificate.</source>
        <extracomment>%1 is the gateway&apos;s address, %2 what is wrong with its certificate, as Qt says it (e.g. &quot;The host name did not match any of the valid hosts for this certificate&quot;).</extracomment>
        <translation>Dem Zertifikat von %1 wird nicht vertraut: %2. Wenn das Gateway eine eigene Zertifizierungsstelle verwendet, starte die App mit --ca-file und dem Zertifikat dieser Stelle.</translation>
    </message>
    <message>
        <source>The sign-in expired: sign in again.</source>
        <translation>Die Anmeldung ist abgelaufen: Melde dich erneut an.</translation>
    </message>
    <message>
        <source>The gateway signed you out (the account was removed, or its token changed): sign in again.</source>
        <translation>Das Gateway hat dich abgemeldet (das Konto wurde entfernt oder sein Token geändert): Melde dich erneut an.</translation>
    </message>
    <message>
        <source>unknown</source>
        <extracomment>In place of a fingerprint that could not be read.</extracomment>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>The certificate of %1 changed since it was trusted: it was %2 and is now %3. This may mean that someone is intercepting the connection. Sign in only once the gateway&apos;s administrator confirms the new certificate.</source>
        <extracomment>%1 is the gateway&apos;s address, %2 the SHA-256 fingerprint of the certificate trusted for it, %3 that of the one it presented now (&quot;AB:CD:…&quot;).</extracomment>
        <translation>Das Zertifikat von %1 hat sich geändert, seit ihm vertraut wurde: Es war %2 und ist jetzt %3. Das kann bedeuten, dass jemand die Verbindung abfängt. Melde dich erst an, wenn der Administrator des Gateways das neue Zertifikat bestätigt.</translation>
    </message>
    <message>
        <source>The certificate of %1 is not trusted: %2. Its SHA-256 fingerprint is %3. If that is your gateway&apos;s certificate, you can trust it for this server in the sign-in dialog (Sign in…); if the gateway uses its own certificate authority, start the app with --ca-file and that authority&apos;s certificate.</source>
        <extracomment>%1 is the gateway&apos;s address, %2 what is wrong with its certificate, as Qt says it, %3 the certificate&apos;s SHA-256 fingerprint (&quot;AB:CD:…&quot;).</extracomment>
        <translation>Dem Zertifikat von %1 wird nicht vertraut: %2. Sein SHA-256-Fingerabdruck ist %3. Wenn das das Zertifikat deines Gateways ist, kannst du ihm im Anmeldedialog (Anmelden…) für diesen Server vertrauen; wenn das Gateway eine eigene Zertifizierungsstelle verwendet, starte die App mit --ca-file und dem Zertifikat dieser Stelle.</translation>
    </message>
</context>
<context>
    <name>Presence::Session::GatewaySession</name>
    <message>
        <source>The gateway did not answer in time.</source>
        <translation>Das Gateway hat nicht rechtzeitig geantwortet.</translation>
    </message>
    <message>
        <source>This is larger than the gateway accepts: at most %1 bytes.</source>
        <translation>Das ist größer, als das Gateway annimmt: höchstens %1 Bytes.</translation>
    </message>
    <message>
        <source>The gateway dropped a request (rate limited).</source>
        <translation>Das Gateway hat eine Anfrage verworfen (Ratenbegrenzung).</translation>
    </message>
    <message>
        <source>The gateway stopped answering.</source>
        <translation>Das Gateway antwortet nicht mehr.</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ChatHeader</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ChatMessageDelegate</name>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1 · waiting for connection</source>
        <translation>%1 · wartet auf Verbindung</translation>
    </message>
    <message>
        <source>%1 · sending…</source>
        <translation>%1 · wird gesendet…</translation>
    </message>
    <message>
        <source>%1 · not confirmed yet</source>
        <translation>%1 · noch nicht bestätigt</translation>
    </message>
    <message>
        <source>%1 · sent</source>
        <translation>%1 · gesendet</translation>
    </message>
    <message>
        <source>%1 · not sent</source>
        <translation>%1 · nicht gesendet</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1, %2: %3</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Du</translation>
    </message>
    <message>
        <source>New messages</source>
        <translation>Neue Nachrichten</translation>
    </message>
    <message>
        <source>Right-click to send it again or discard it.</source>
        <translation>Rechtsklick, um sie erneut zu senden oder zu verwerfen.</translation>
    </message>
    <message>
        <source>Goes out as soon as the connection is back.</source>
        <translation>Wird gesendet, sobald die Verbindung wieder steht.</translation>
    </message>
    <message>
        <source>The connection dropped before the gateway confirmed this message; it is checked and, if needed, sent again once reconnected.</source>
        <translation>Die Verbindung brach ab, bevor das Gateway diese Nachricht bestätigt hat. Nach dem Wiederverbinden wird sie geprüft und bei Bedarf erneut gesendet.</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ChatPane</name>
    <message>
        <source>Select a friend to chat.</source>
        <translation>Wähle einen Freund zum Chatten aus.</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Send message</source>
        <translation>Nachricht senden</translation>
    </message>
    <message>
        <source>Message %1 — Enter sends, Shift+Enter adds a line</source>
        <translation>Nachricht an %1 — Eingabe sendet, Umschalt+Eingabe für neue Zeile</translation>
    </message>
    <message>
        <source>Message %1</source>
        <translation>Nachricht an %1</translation>
    </message>
    <message>
        <source>Send again</source>
        <translation>Erneut senden</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Open link</source>
        <translation>Link öffnen</translation>
    </message>
    <message>
        <source>Copy link</source>
        <translation>Link kopieren</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>Text kopieren</translation>
    </message>
    <message>
        <source>Messages load once connected.</source>
        <translation>Die Nachrichten werden geladen, sobald eine Verbindung besteht.</translation>
    </message>
    <message>
        <source>Loading messages…</source>
        <translation>Nachrichten werden geladen…</translation>
    </message>
    <message>
        <source>Loading earlier messages…</source>
        <translation>Ältere Nachrichten werden geladen…</translation>
    </message>
    <message>
        <source>No messages with %1 yet. Say hello!</source>
        <translation>Noch keine Nachrichten mit %1. Sag Hallo!</translation>
    </message>
    <message>
        <source>Back to the list (Esc)</source>
        <translation>Zurück zur Liste (Esc)</translation>
    </message>
    <message>
        <source>Back to the list</source>
        <translation>Zurück zur Liste</translation>
    </message>
    <message>
        <source>No chat on this gateway</source>
        <translation>Kein Chat auf diesem Gateway</translation>
    </message>
    <message>
        <source>This gateway offers no chat: you see when %1 is online, but cannot exchange messages through it.</source>
        <translation>Dieses Gateway bietet keinen Chat: Du siehst, wann %1 online ist, kannst über es aber keine Nachrichten austauschen.</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ChatRowContext</name>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Gestern</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ConnectionBanner</name>
    <message>
        <source>Retry now</source>
        <translation>Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Sign in…</source>
        <translation>Anmelden…</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Retry connecting now</source>
        <translation>Jetzt erneut verbinden</translation>
    </message>
    <message>
        <source>Sign in with another token or gateway</source>
        <translation>Mit einem anderen Token oder Gateway anmelden</translation>
    </message>
    <message>
        <source>Connection problem</source>
        <translation>Verbindungsproblem</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ConversationDelegate</name>
    <message>
        <source>You: %1</source>
        <extracomment>The preview of a chat whose latest message is ours.</extracomment>
        <translation>Du: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n ungelesen</numerusform>
            <numerusform>%n ungelesen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Presence::Ui::ConversationListPane</name>
    <message>
        <source>Chats</source>
        <translation>Chats</translation>
    </message>
    <message>
        <source>No chats yet.
Open a friend in Friends and say hello.</source>
        <translation>Noch keine Chats.
Öffne einen Freund unter „Freunde“ und sag Hallo.</translation>
    </message>
    <message>
        <source>This gateway offers no chat.
Friends shows who is online.</source>
        <translation>Dieses Gateway bietet keinen Chat.
Unter Freunde siehst du, wer online ist.</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::FriendListPane</name>
    <message>
        <source>Search friends</source>
        <translation>Freunde suchen</translation>
    </message>
    <message>
        <source>Online first</source>
        <translation>Online zuerst</translation>
    </message>
    <message>
        <source>By name</source>
        <translation>Nach Name</translation>
    </message>
    <message>
        <source>Sort friends</source>
        <translation>Freunde sortieren</translation>
    </message>
    <message>
        <source>Friends</source>
        <translation>Freunde</translation>
    </message>
    <message>
        <source>No friends match “%1”</source>
        <extracomment>Over the empty friend list; %1 is what the user typed.</extracomment>
        <translation>Keine Freunde passen zu „%1“</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::MainWindow</name>
    <message>
        <source>Presence Chat</source>
        <translation>Presence Chat</translation>
    </message>
    <message>
        <source>&amp;Presence</source>
        <extracomment>The first menu: switching account, signing out, quitting.</extracomment>
        <translation>&amp;Programm</translation>
    </message>
    <message>
        <source>S&amp;witch account…</source>
        <translation>Konto &amp;wechseln…</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>&amp;Abmelden</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Notify when a friend comes online</source>
        <translation>&amp;Benachrichtigen, wenn ein Freund online geht</translation>
    </message>
    <message>
        <source>A desktop notification (system tray) when a friend comes online</source>
        <translation>Eine Desktop-Benachrichtigung (im Infobereich), wenn ein Freund online geht</translation>
    </message>
    <message>
        <source>&amp;Away when idle for</source>
        <translation>&amp;Abwesend bei Inaktivität nach</translation>
    </message>
    <message>
        <source>1 minute</source>
        <translation>1 Minute</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 Minuten</translation>
    </message>
    <message>
        <source>%1 friends · %2 online · %3 not known</source>
        <extracomment>Status bar: friends, those online, and those whose presence is not known.</extracomment>
        <translation>%1 Freunde · %2 online · %3 unbekannt</translation>
    </message>
    <message>
        <source>%1 friends · %2 online</source>
        <translation>%1 Freunde · %2 online</translation>
    </message>
    <message>
        <source>%1 friends · status unknown while reconnecting</source>
        <translation>%1 Freunde · Status unbekannt, bis die Verbindung wieder steht</translation>
    </message>
    <message>
        <source>%1 watched exactly (the rows on screen) · %2 covered by the availability set</source>
        <extracomment>The status bar&apos;s tooltip, for the curious: what the client asks the gateway for.</extracomment>
        <translation>%1 genau beobachtet (die sichtbaren Zeilen) · %2 über die Verfügbarkeitsliste erfasst</translation>
    </message>
    <message>
        <source>Chats</source>
        <extracomment>Tab of the left pane: recent conversations.</extracomment>
        <translation>Chats</translation>
    </message>
    <message>
        <source>Friends</source>
        <extracomment>Tab of the left pane: the friend list.</extracomment>
        <translation>Freunde</translation>
    </message>
    <message>
        <source>(%1) Presence Chat</source>
        <extracomment>The window title while messages are unread: (3) Presence Chat.</extracomment>
        <translation>(%1) Presence Chat</translation>
    </message>
    <message>
        <source>Chats (%1)</source>
        <extracomment>The Chats tab while messages are unread.</extracomment>
        <translation>Chats (%1)</translation>
    </message>
    <message>
        <source>Notify on new &amp;messages</source>
        <translation>Bei neuen &amp;Nachrichten benachrichtigen</translation>
    </message>
    <message>
        <source>A desktop notification for a message whose chat is not in front</source>
        <translation>Eine Desktop-Benachrichtigung bei einer Nachricht, deren Chat nicht im Vordergrund ist</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <extracomment>Status bar while signing in for the first time.</extracomment>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>%1 friends · not signed in</source>
        <translation>%1 Freunde · nicht angemeldet</translation>
    </message>
    <message>
        <source>Not signed in</source>
        <extracomment>Status bar when not signed in.</extracomment>
        <translation>Nicht angemeldet</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::MoreOnlineChip</name>
    <message numerus="yes">
        <source>%n more online ↑</source>
        <extracomment>Over the top of the friend list: friends above the rows in sight came online.</extracomment>
        <translation>
            <numerusform>%n weiterer online ↑</numerusform>
            <numerusform>%n weitere online ↑</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Presence::Ui::NewMessagesPill</name>
    <message>
        <source>Scroll to the newest message</source>
        <translation>Zur neuesten Nachricht scrollen</translation>
    </message>
    <message>
        <source>1 new message ↓</source>
        <translation>1 neue Nachricht ↓</translation>
    </message>
    <message>
        <source>%1 new messages ↓</source>
        <translation>%1 neue Nachrichten ↓</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::PresenceText</name>
    <message>
        <source>online</source>
        <translation>online</translation>
    </message>
    <message>
        <source>away</source>
        <translation>abwesend</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>offline</translation>
    </message>
    <message>
        <source>status unknown</source>
        <translation>Status unbekannt</translation>
    </message>
    <message>
        <source>online moments ago</source>
        <extracomment>A friend no longer watched: what was known, and how long ago.</extracomment>
        <translation>vor Kurzem online</translation>
    </message>
    <message>
        <source>away moments ago</source>
        <translation>vor Kurzem abwesend</translation>
    </message>
    <message>
        <source>online %1 min ago</source>
        <translation>vor %1 Min. online</translation>
    </message>
    <message>
        <source>away %1 min ago</source>
        <translation>vor %1 Min. abwesend</translation>
    </message>
    <message>
        <source>online %1 h ago</source>
        <translation>vor %1 Std. online</translation>
    </message>
    <message>
        <source>away %1 h ago</source>
        <translation>vor %1 Std. abwesend</translation>
    </message>
    <message>
        <source>last seen just now</source>
        <translation>zuletzt gesehen: gerade eben</translation>
    </message>
    <message>
        <source>last seen %1 min ago</source>
        <translation>zuletzt gesehen vor %1 Min.</translation>
    </message>
    <message>
        <source>last seen %1 h ago</source>
        <translation>zuletzt gesehen vor %1 Std.</translation>
    </message>
    <message>
        <source>last seen yesterday</source>
        <translation>zuletzt gesehen gestern</translation>
    </message>
    <message>
        <source>last seen %1</source>
        <translation>zuletzt gesehen am %1</translation>
    </message>
    <message>
        <source>%1 (%2) — %3</source>
        <extracomment>A friend-list tooltip and accessible text: the friend&apos;s name, their handle (@id), then the presence.</extracomment>
        <translation>%1 (%2) — %3</translation>
    </message>
    <message>
        <source>%1, 1 unread message</source>
        <extracomment>Appended to a friend&apos;s summary when they sent messages not read yet.</extracomment>
        <translation>%1, 1 ungelesene Nachricht</translation>
    </message>
    <message>
        <source>%1, %2 unread messages</source>
        <translation>%1, %2 ungelesene Nachrichten</translation>
    </message>
</context>
<context>
    <name>Presence::Ui::SessionHeader</name>
    <message>
        <source>Online</source>
        <translation>Online</translation>
    </message>
    <message>
        <source>Away</source>
        <translation>Abwesend</translation>
    </message>
    <message>
        <source>Invisible</source>
        <translation>Unsichtbar</translation>
    </message>
    <message>
        <source>My status</source>
        <translation>Mein Status</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Connection to the gateway lost — %1</source>
        <extracomment>The banner while the connection is down; %1 is &quot;reconnecting in 4 s…&quot;.</extracomment>
        <translation>Verbindung zum Gateway verloren — %1</translation>
    </message>
    <message>
        <source>Connection to the gateway lost — reconnecting…</source>
        <translation>Verbindung zum Gateway verloren — verbinde erneut…</translation>
    </message>
    <message>
        <source>Not signed in.</source>
        <translation>Nicht angemeldet.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Presence Chat</source>
        <translation>Presence Chat</translation>
    </message>
</context>
</TS>
