import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import {
  Button,
  brandTitle,
  cn,
  errorMessage,
  gptTitle,
  initials,
  toast,
  useSession,
  useTheme,
  useWorkspace,
} from '@aict/web-kit';
import {
  ChatIcon,
  ImageIcon,
  LogOutIcon,
  MoonIcon,
  PromptsIcon,
  SettingsIcon,
  SparkIcon,
  StatsIcon,
  SunIcon,
  TextIcon,
} from './icons';
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
  const { resolvedTheme, setTheme } = useTheme();
  const navigate = useNavigate();
  const workspaceName = currentWorkspace?.name;

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
        navigate('/auth', { replace: true });
      },
      onError: (error) =>
        toast({ title: 'Logout failed', description: errorMessage(error), variant: 'destructive' }),
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
            <SparkIcon />
          </span>
        )}
        <span className={styles.brandTitle}>{brandTitle(workspaceName)}</span>
      </div>

      <nav aria-label="Main" className={styles.nav}>
        <ul className={styles.list}>
          <NavItem to="/" icon={<ChatIcon />}>
            {gptTitle(workspaceName)}
          </NavItem>
          <NavItem to="/text-generation" icon={<TextIcon />}>
            Text Generation
          </NavItem>
          <NavItem to="/image-generation" icon={<ImageIcon />}>
            Image Generation
          </NavItem>
          <NavItem to="/stats" icon={<StatsIcon />}>
            Stats
          </NavItem>
        </ul>
        {isAdmin && (
          <section aria-labelledby="sidebar-admin" className={styles.section}>
            <h2 id="sidebar-admin" className={styles.sectionTitle}>
              Admin
            </h2>
            <ul className={styles.list}>
              <NavItem to="/prompts" icon={<PromptsIcon />}>
                Prompts
              </NavItem>
              <NavItem to="/settings" icon={<SettingsIcon />}>
                Settings
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
            aria-label={`Switch to ${nextTheme} theme`}
          >
            {resolvedTheme === 'dark' ? <SunIcon /> : <MoonIcon />}
            <span>{resolvedTheme === 'dark' ? 'Light mode' : 'Dark mode'}</span>
          </Button>
          <Button variant="ghost" size="sm" onClick={onLogout} disabled={logout.isPending}>
            <LogOutIcon />
            <span>Log out</span>
          </Button>
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
