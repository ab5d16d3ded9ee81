import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import {
  Button,
  brandTitle,
  cn,
  errorMessage,
  gptTitle,
  initials,
  LanguageSelect,
  toast,
  useTranslation,
  useSession,
  useTheme,
  useWorkspace,
  ChatIcon,
  ImageIcon,
  KeyIcon,
  LogOutIcon,
  MoonIcon,
  PromptsIcon,
  SettingsIcon,
  SparkIcon,
  StatsIcon,
  SunIcon,
  TextIcon,
} from '@aict/web-kit';
import styles from './sidebar.module.css';

function NavItem({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  return (
    <li>
      <NavLink to={to} end className={({ isActive }) => cn(styles.link, isActive && styles.active)}>
        {icon}
        <span>{children}</span>
      </NavLink>
    </li>
  );
}

/** The sidebar's content (in a fixed column on wide screens, in the drawer on narrow ones). */
export function Sidebar() {
  const { user, logout } = useSession();
  const { currentWorkspace, isAdmin } = useWorkspace();
  const { theme, resolvedTheme, setTheme } = useTheme();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const workspaceName = currentWorkspace?.name;

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast({ title: t('shell.loggedOut'), description: t('shell.loggedOutText') });
        navigate('/auth', { replace: true });
      },
      onError: (error) =>
        toast({
          title: t('shell.logoutFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });

  const nextTheme = resolvedTheme === 'dark' ? 'light' : 'dark';
  return (
    <div className={styles.sidebar}>
      <div className={styles.brand}>
        {currentWorkspace?.logoUrl ? (
          // the logo as the server serves it (GET /api/workspaces/{id}/logo…), decorative here
          <img className={styles.logoImage} src={currentWorkspace.logoUrl} alt="" />
        ) : (
          <span className={styles.logo} aria-hidden="true">
            <SparkIcon size={18} />
          </span>
        )}
        {/* cut with an ellipsis when long: the title shows it whole */}
        <span className={styles.brandTitle} title={brandTitle(workspaceName)}>
          {brandTitle(workspaceName)}
        </span>
      </div>

      <nav aria-label={t('shell.nav.main')} className={styles.nav}>
        <ul className={styles.list}>
          <NavItem to="/" icon={<ChatIcon size={18} />}>
            {gptTitle(workspaceName)}
          </NavItem>
          <NavItem to="/text-generation" icon={<TextIcon size={18} />}>
            {t('shell.nav.textGeneration')}
          </NavItem>
          <NavItem to="/image-generation" icon={<ImageIcon size={18} />}>
            {t('shell.nav.imageGeneration')}
          </NavItem>
          <NavItem to="/stats" icon={<StatsIcon size={18} />}>
            {t('shell.nav.stats')}
          </NavItem>
          <NavItem to="/gallery" icon={<ImageIcon size={18} />}>
            {t('shell.nav.gallery')}
          </NavItem>
          <NavItem to="/api-tokens" icon={<KeyIcon size={18} />}>
            {t('shell.nav.apiTokens')}
          </NavItem>
        </ul>
        {isAdmin && (
          <section aria-labelledby="sidebar-admin" className={styles.section}>
            <h2 id="sidebar-admin" className={styles.sectionTitle}>
              {t('shell.nav.admin')}
            </h2>
            <ul className={styles.list}>
              <NavItem to="/prompts" icon={<PromptsIcon size={18} />}>
                {t('shell.nav.prompts')}
              </NavItem>
              <NavItem to="/settings" icon={<SettingsIcon size={18} />}>
                {t('shell.nav.settings')}
              </NavItem>
              <NavItem to="/usage" icon={<StatsIcon size={18} />}>
                {t('shell.nav.usage')}
              </NavItem>
              <NavItem to="/audit" icon={<KeyIcon size={18} />}>
                {t('shell.nav.audit')}
              </NavItem>
            </ul>
          </section>
        )}
      </nav>

      <div className={styles.footer}>
        <div className={styles.actions}>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setTheme(nextTheme)}
            aria-label={t(`shell.theme.switchTo_${nextTheme}`)}
          >
            {resolvedTheme === 'dark' ? <SunIcon size={18} /> : <MoonIcon size={18} />}
            <span>
              {resolvedTheme === 'dark' ? t('shell.theme.lightMode') : t('shell.theme.darkMode')}
            </span>
          </Button>
          {theme !== 'system' && (
            <Button variant="ghost" size="sm" onClick={() => setTheme('system')}>
              <span>{t('shell.theme.useSystem')}</span>
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onLogout} disabled={logout.isPending}>
            <LogOutIcon size={18} />
            <span>{t('shell.logOut')}</span>
          </Button>
          <LanguageSelect className={styles.language} />
        </div>
        {user && (
          <div className={styles.user}>
            <span className={styles.avatar} aria-hidden="true">
              {initials(user.username)}
            </span>
            <div className={styles.userText}>
              <div className={styles.username}>{user.username}</div>
              <div className={styles.email}>{user.email}</div>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
